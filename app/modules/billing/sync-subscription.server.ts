import { eq } from "drizzle-orm";
import { billingCustomers, subscriptions } from "#db/schema/index.ts";
import { planOfPrice, type BillingDeps, type BillingServices } from "./billing-services.server.ts";
import { cancelDuplicateSubscriptions } from "./cancel-duplicate-subscriptions.server.ts";
import type { PaidPlanId } from "./plans.ts";
import { ENTITLED_STATUSES } from "./user-plan.server.ts";

export type SyncResult =
  | { ok: true; userId: string; plan: PaidPlanId; status: string }
  | { ok: false; reason: "unknown_customer" | "unknown_price" };

type ConfiguredDeps = BillingDeps & { billing: BillingServices };

const fromUnix = (s: number | null | undefined) => (typeof s === "number" ? new Date(s * 1000) : null);

/**
 * Re-read a subscription from Stripe's API and store our copy of it. Never fed from a webhook
 * payload or a browser: whatever triggered the sync, the row holds what Stripe says now, so
 * running it twice, or for events arriving out of order, gives the same row.
 *
 * The owner is the user whose Stripe customer it is (billing_customers, created by us); the
 * plan comes from the price on the server's own list. Anything else is ignored and logged.
 */
export async function syncSubscription(deps: ConfiguredDeps, subscriptionId: string): Promise<SyncResult> {
  const { db, logger, billing } = deps;
  const sub = await billing.stripe.subscriptions.retrieve(subscriptionId);
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  const [owner] = await db.select({ userId: billingCustomers.userId }).from(billingCustomers).where(eq(billingCustomers.stripeCustomerId, customerId));
  if (!owner) {
    logger.warn({ subscription: sub.id, customer: customerId }, "stripe subscription ignored: the customer is not one of ours");
    return { ok: false, reason: "unknown_customer" };
  }
  // one item per subscription: Checkout sells one plan at a time
  const item = sub.items.data[0];
  const plan = planOfPrice(billing, item?.price.id);
  if (!item || !plan) {
    logger.warn({ subscription: sub.id, price: item?.price.id }, "stripe subscription ignored: its price is not one of the configured plans");
    return { ok: false, reason: "unknown_price" };
  }
  const row = {
    userId: owner.userId,
    stripeCustomerId: customerId,
    priceId: item.price.id,
    plan,
    status: sub.status,
    currentPeriodStart: fromUnix(item.current_period_start),
    currentPeriodEnd: fromUnix(item.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at !== null,
    trialEnd: fromUnix(sub.trial_end),
    updatedAt: new Date(),
  };
  await db
    .insert(subscriptions)
    .values({ id: sub.id, ...row })
    .onConflictDoUpdate({ target: subscriptions.id, set: row });
  if ((ENTITLED_STATUSES as readonly string[]).includes(sub.status)) {
    // a second live subscription (two checkouts paid at once) is canceled; our copies follow,
    // the kept one's too (its own webhook may not have arrived yet)
    const { kept, canceled } = await cancelDuplicateSubscriptions(deps, customerId);
    for (const id of canceled) if (id !== sub.id) await syncSubscription(deps, id);
    if (canceled.length && kept && kept !== sub.id) await syncSubscription(deps, kept);
    if (canceled.includes(sub.id)) return syncSubscription(deps, sub.id);
  }
  return { ok: true, userId: owner.userId, plan, status: sub.status };
}
