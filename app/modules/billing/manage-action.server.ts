import { redirect } from "react-router";
import type { AppLoadContext } from "react-router";
import { loginUrlFor } from "../account/return-to.ts";
import { getSessionUser } from "../account/session-user.server.ts";
import type { SessionUser } from "../account/account-services.server.ts";
import type { BillingErrorCode } from "./billing-messages.ts";
import type { BillingDeps } from "./billing-services.server.ts";

const NOTICE_OF: Record<BillingErrorCode, string> = {
  "billing.not_configured": "payments-unavailable",
  "billing.no_subscription": "no-subscription",
  "billing.rate_limited": "billing-rate-limited",
  "billing.login_required": "billing-error",
  "billing.invalid_plan": "billing-error",
  "billing.already_subscribed": "billing-error",
  "billing.checkout_failed": "billing-error",
  "billing.no_session": "billing-error",
  "billing.verify_login_required": "billing-error",
  "billing.activation_failed": "billing-error",
  "billing.manage_failed": "billing-error",
};

/**
 * The dashboard's subscription buttons (`POST /billing/portal`, `POST /billing/cancel`): log in
 * first; then the use-case's answer is a 303, to Stripe or back to /dashboard with a notice.
 */
export async function runManageAction(
  request: Request,
  context: AppLoadContext,
  useCase: (deps: BillingDeps, user: SessionUser) => Promise<{ ok: true; to: string } | { ok: false; code: BillingErrorCode }>,
): Promise<never> {
  const user = await getSessionUser(context.accounts, request);
  if (!user) throw redirect(loginUrlFor("/dashboard", "auth-required"), 303);
  const result = await useCase({ db: context.db, logger: context.logger, billing: context.billing }, user);
  throw redirect(result.ok ? result.to : `/dashboard?notice=${NOTICE_OF[result.code]}`, 303);
}

export function methodNotAllowed(): Response {
  return new Response("Use the button on your dashboard.", { status: 405, headers: { allow: "POST" } });
}
