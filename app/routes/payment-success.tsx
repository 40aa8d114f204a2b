import { redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/payment-success";
import { seo } from "#app/lib/seo.ts";
import { loginUrlFor } from "#app/modules/account/return-to.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { billingError } from "#app/modules/billing/billing-messages.ts";
import { PaymentResult, type PaymentOutcome } from "#app/modules/billing/payment-result.tsx";
import { verifyCheckout } from "#app/modules/billing/verify-checkout.server.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, { title: "Payment", description: "The result of your payment.", path: "/payment-success", noindex: true });

export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store" });

/**
 * The return from Stripe Checkout. The session is verified with Stripe for the logged-in user
 * before anything is shown; premium starts only when Stripe confirms the payment (or trial).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const user = await getSessionUser(context.accounts, request);
  if (!user) throw redirect(loginUrlFor(url.pathname + url.search, "payment-auth-required"));
  const sessionId = url.searchParams.get("session_id");
  const result = await verifyCheckout({ db: context.db, logger: context.logger, billing: context.billing }, user, sessionId);
  const outcome: PaymentOutcome = result.ok
    ? { state: "success", plan: result.plan }
    : { state: "error", noSession: result.code === "billing.no_session", message: billingError(result.code).message };
  return { outcome, retryHref: `/payment-success?${new URLSearchParams({ session_id: sessionId ?? "" }).toString()}` };
}

export default function PaymentSuccess() {
  const { outcome, retryHref } = useLoaderData<typeof loader>();
  return <PaymentResult outcome={outcome} retryHref={retryHref} />;
}
