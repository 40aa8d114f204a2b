import { eq } from "drizzle-orm";
import { billingCustomers, subscriptions } from "#db/schema/index.ts";
import type { SessionUser } from "../account/account-services.server.ts";
import type { BillingErrorCode } from "./billing-messages.ts";
import { BILLING_LIMIT_RULES, type BillingDeps, type BillingServices } from "./billing-services.server.ts";
import { isPaidPlanId, type PaidPlanId } from "./plans.ts";
import { ENTITLED_STATUSES, getUserPlan } from "./user-plan.server.ts";

export const TRIAL_DAYS = 7;

export type CheckoutResult = { ok: true; sessionId: string; url: string } | { ok: false; code: BillingErrorCode; retryAfterSeconds?: number };

/** "pro", "Pro" or the spec's planName "Pro Plan": our plan id, or null. */
export function planIdFrom(value: unknown): PaidPlanId | null {
  if (typeof value !== "string") return null;
  const id = value.trim().toLowerCase().replace(/\s+plan$/, "");
  return isPaidPlanId(id) ? id : null;
}

/**
 * The user's Stripe customer: created on the first checkout and kept in billing_customers, so
 * every subscription of a user hangs off one customer. The idempotency key makes a double
 * click (two requests racing) get the same customer back from Stripe.
 */
export async function ensureStripeCustomer(deps: BillingDeps & { billing: BillingServices }, user: SessionUser): Promise<string> {
  const { db, billing } = deps;
  const [existing] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
  if (existing) return existing.stripeCustomerId;
  const customer = await billing.stripe.customers.create(
    { email: user.email, name: user.name, metadata: { userId: user.id } },
    { idempotencyKey: `vidfetch-customer-${user.id}` },
  );
  await db.insert(billingCustomers).values({ userId: user.id, stripeCustomerId: customer.id }).onConflictDoNothing();
  const [stored] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
  return stored?.stripeCustomerId ?? customer.id;
}

/**
 * What Stripe knows of the customer's subscriptions, beyond our records (a webhook may not have
 * arrived yet): whether one still grants a plan, and whether there ever was one (the 7-day trial
 * is for a user's first subscription only: none in our records, none at Stripe).
 */
async function subscriptionHistory(deps: BillingDeps & { billing: BillingServices }, userId: string, customerId: string): Promise<{ live: boolean; first: boolean }> {
  const [ours] = await deps.db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, userId)).limit(1);
  const theirs = await deps.billing.stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 });
  const live = theirs.data.some((sub) => (ENTITLED_STATUSES as readonly string[]).includes(sub.status));
  return { live, first: !ours && theirs.data.length === 0 };
}

/**
 * One checkout open per customer (issue 27 §13): two tabs, each with its checkout page, must
 * not both be paid into two subscriptions. Each new session expires every open one that is
 * older than it (by creation time, then id): whichever requests race, the newest survives.
 */
async function expireOlderCheckouts(deps: BillingDeps & { billing: BillingServices }, customerId: string, newest: { id: string; created: number }): Promise<void> {
  const open = await deps.billing.stripe.checkout.sessions.list({ customer: customerId, status: "open", limit: 100 });
  const older = open.data.filter((s) => s.id !== newest.id && (s.created < newest.created || (s.created === newest.created && s.id < newest.id)));
  for (const session of older) {
    try {
      await deps.billing.stripe.checkout.sessions.expire(session.id);
    } catch (err) {
      // completed or expired meanwhile: a completed one is caught by the webhook (cancelDuplicateSubscriptions)
      deps.logger.warn({ err, session: session.id }, "an older checkout session could not be expired");
    }
  }
}

/**
 * Start Stripe Checkout for a plan, in subscription mode. Everything that matters is decided
 * here: the price from the plan id, the URLs from PUBLIC_URL, the customer and the trial from
 * our records. The browser only names the plan.
 */
export async function startCheckout(deps: BillingDeps, user: SessionUser, planInput: unknown): Promise<CheckoutResult> {
  const { billing, logger } = deps;
  if (!billing) return { ok: false, code: "billing.not_configured" };
  const plan = planIdFrom(planInput);
  if (!plan) return { ok: false, code: "billing.invalid_plan" };
  const limit = await billing.limiter.hit(`checkout:${user.id}`, BILLING_LIMIT_RULES.checkoutPerUser);
  if (!limit.allowed) return { ok: false, code: "billing.rate_limited", retryAfterSeconds: limit.retryAfterSeconds };
  if ((await getUserPlan(deps.db, user.id)).plan !== "free") return { ok: false, code: "billing.already_subscribed" };

  const configured = { ...deps, billing };
  try {
    const customer = await ensureStripeCustomer(configured, user);
    const history = await subscriptionHistory(configured, user.id, customer);
    // paid at Stripe already, even if our copy is not there yet: changes go through the portal
    if (history.live) return { ok: false, code: "billing.already_subscribed" };
    const trial = history.first;
    const metadata = { userId: user.id, plan };
    const session = await billing.stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      client_reference_id: user.id,
      line_items: [{ price: billing.prices[plan], quantity: 1 }],
      success_url: `${billing.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${billing.publicUrl}/premium?checkout=canceled`,
      metadata,
      subscription_data: { metadata, ...(trial ? { trial_period_days: TRIAL_DAYS } : {}) },
    });
    if (!session.url) throw new Error("Stripe returned a checkout session without a URL");
    await expireOlderCheckouts(configured, customer, session);
    logger.info({ userId: user.id, plan, session: session.id, trial }, "checkout session created");
    return { ok: true, sessionId: session.id, url: session.url };
  } catch (err) {
    logger.error({ err, userId: user.id, plan }, "checkout session could not be created");
    return { ok: false, code: "billing.checkout_failed" };
  }
}
