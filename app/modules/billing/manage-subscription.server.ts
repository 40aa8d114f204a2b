import { eq } from "drizzle-orm";
import { billingCustomers } from "#db/schema/index.ts";
import type { SessionUser } from "../account/account-services.server.ts";
import type { BillingErrorCode } from "./billing-messages.ts";
import { BILLING_LIMIT_RULES, type BillingDeps, type BillingServices } from "./billing-services.server.ts";
import { syncSubscription } from "./sync-subscription.server.ts";
import { getUserPlan } from "./user-plan.server.ts";

type Failure = { ok: false; code: BillingErrorCode };

async function allowed(billing: BillingServices, user: SessionUser): Promise<boolean> {
  return (await billing.limiter.hit(`manage:${user.id}`, BILLING_LIMIT_RULES.managePerUser)).allowed;
}

/**
 * Stripe's Customer Portal for the user's own customer (update the card, change plan at the
 * next cycle, cancel), returning to /dashboard. A user who never subscribed has nothing there.
 */
export async function openCustomerPortal(deps: BillingDeps, user: SessionUser): Promise<{ ok: true; url: string } | Failure> {
  const { db, billing, logger } = deps;
  if (!billing) return { ok: false, code: "billing.not_configured" };
  const [customer] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
  if (!customer || (await getUserPlan(db, user.id)).plan === "free") return { ok: false, code: "billing.no_subscription" };
  if (!(await allowed(billing, user))) return { ok: false, code: "billing.rate_limited" };
  try {
    const portal = await billing.stripe.billingPortal.sessions.create({ customer: customer.stripeCustomerId, return_url: `${billing.publicUrl}/dashboard` });
    return { ok: true, url: portal.url };
  } catch (err) {
    logger.error({ err, userId: user.id }, "customer portal session could not be created");
    return { ok: false, code: "billing.manage_failed" };
  }
}

/**
 * Cancel the user's current subscription at the end of its paid period (spec FAQ: features stay
 * until then), through Stripe's API, then store what Stripe answers.
 */
export async function cancelAtPeriodEnd(deps: BillingDeps, user: SessionUser): Promise<{ ok: true; periodEnd: Date | null } | Failure> {
  const { db, billing, logger } = deps;
  if (!billing) return { ok: false, code: "billing.not_configured" };
  const { subscription } = await getUserPlan(db, user.id);
  if (!subscription) return { ok: false, code: "billing.no_subscription" };
  if (!(await allowed(billing, user))) return { ok: false, code: "billing.rate_limited" };
  try {
    await billing.stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true });
    await syncSubscription({ ...deps, billing }, subscription.id);
    logger.info({ userId: user.id, subscription: subscription.id }, "subscription set to cancel at period end");
    return { ok: true, periodEnd: subscription.currentPeriodEnd };
  } catch (err) {
    logger.error({ err, userId: user.id, subscription: subscription.id }, "subscription could not be canceled");
    return { ok: false, code: "billing.manage_failed" };
  }
}
