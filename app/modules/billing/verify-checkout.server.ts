import type { SessionUser } from "../account/account-services.server.ts";
import type { BillingErrorCode } from "./billing-messages.ts";
import { BILLING_LIMIT_RULES, type BillingDeps } from "./billing-services.server.ts";
import type { PaidPlanId } from "./plans.ts";
import { syncSubscription } from "./sync-subscription.server.ts";
import { ENTITLED_STATUSES } from "./user-plan.server.ts";

export type VerifyResult = { ok: true; plan: PaidPlanId; status: string } | { ok: false; code: BillingErrorCode; retryAfterSeconds?: number };

/** Stripe's Checkout Session ids; anything else is not worth a call to Stripe. */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/**
 * The return from Checkout (`/payment-success?session_id=`). Premium only after a payment Stripe
 * confirms: the session is read from Stripe, must be this user's (client_reference_id), complete
 * and paid (or a trial, which needs no payment yet); then the subscription is re-read and
 * stored exactly as the webhook does. An unknown, foreign or unpaid session changes nothing.
 */
export async function verifyCheckout(deps: BillingDeps, user: SessionUser, sessionIdInput: unknown): Promise<VerifyResult> {
  const { billing, logger } = deps;
  if (typeof sessionIdInput !== "string" || sessionIdInput === "") return { ok: false, code: "billing.no_session" };
  if (!billing) return { ok: false, code: "billing.not_configured" };
  if (!SESSION_ID.test(sessionIdInput)) return { ok: false, code: "billing.activation_failed" };
  const limit = await billing.limiter.hit(`verify:${user.id}`, BILLING_LIMIT_RULES.verifyPerUser);
  if (!limit.allowed) return { ok: false, code: "billing.rate_limited", retryAfterSeconds: limit.retryAfterSeconds };

  let session;
  try {
    session = await billing.stripe.checkout.sessions.retrieve(sessionIdInput);
  } catch (err) {
    // an unknown id is a 404 from Stripe: worth a line, not a stack trace
    const e = err as { message?: string; code?: string; statusCode?: number };
    logger.warn({ userId: user.id, stripe: { message: e.message, code: e.code, status: e.statusCode } }, "checkout session could not be read from Stripe");
    return { ok: false, code: "billing.activation_failed" };
  }
  const paid = session.payment_status === "paid" || session.payment_status === "no_payment_required";
  const subscriptionId = typeof session.subscription === "string" ? session.subscription : session.subscription?.id;
  if (session.client_reference_id !== user.id || session.mode !== "subscription" || session.status !== "complete" || !paid || !subscriptionId) {
    logger.warn(
      { userId: user.id, session: session.id, owner: session.client_reference_id === user.id, status: session.status, payment: session.payment_status },
      "checkout session refused: not this user's, not complete or not paid",
    );
    return { ok: false, code: "billing.activation_failed" };
  }
  try {
    const synced = await syncSubscription({ ...deps, billing }, subscriptionId);
    if (!synced.ok || synced.userId !== user.id || !(ENTITLED_STATUSES as readonly string[]).includes(synced.status)) {
      return { ok: false, code: "billing.activation_failed" };
    }
    return { ok: true, plan: synced.plan, status: synced.status };
  } catch (err) {
    logger.error({ err, userId: user.id, session: session.id }, "subscription could not be read from Stripe");
    return { ok: false, code: "billing.activation_failed" };
  }
}
