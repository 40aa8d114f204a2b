import type Stripe from "stripe";
import type { BillingDeps, BillingServices } from "./billing-services.server.ts";
import { ENTITLED_STATUSES } from "./user-plan.server.ts";

const entitled = (sub: Stripe.Subscription) => (ENTITLED_STATUSES as readonly string[]).includes(sub.status);

/**
 * One live subscription per customer (issue 27 §13). Checkout keeps one session open per
 * customer, but two sessions paid in the same instant (or one opened before that rule) still make
 * two subscriptions. The oldest is kept: it is the one the user chose first and has been using;
 * every newer one is canceled at once, with proration, so Stripe credits its unused time to the
 * customer's balance (docs/decisions/040). Returns the one kept and the ids canceled.
 */
export async function cancelDuplicateSubscriptions(
  deps: BillingDeps & { billing: BillingServices },
  customerId: string,
): Promise<{ kept: string | null; canceled: string[] }> {
  const { billing, logger } = deps;
  const all = await billing.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 });
  const live = all.data.filter(entitled).sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const canceled: string[] = [];
  for (const duplicate of live.slice(1)) {
    await billing.stripe.subscriptions.cancel(duplicate.id, { prorate: true });
    logger.warn({ customer: customerId, kept: live[0]!.id, canceled: duplicate.id }, "a second live subscription was canceled: one per user");
    canceled.push(duplicate.id);
  }
  return { kept: live[0]?.id ?? null, canceled };
}
