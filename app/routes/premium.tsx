import { data, redirect, useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/premium";
import { seo } from "#app/lib/seo.ts";
import { loginUrlFor } from "#app/modules/account/return-to.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { billingError } from "#app/modules/billing/billing-messages.ts";
import { PremiumPlans, type PremiumPageData, type SubscribeFailure } from "#app/modules/billing/premium-plans.tsx";
import { planIdFrom, startCheckout } from "#app/modules/billing/start-checkout.server.ts";
import { getUserPlan } from "#app/modules/billing/user-plan.server.ts";
import { formFields } from "#app/lib/forms/form-problem.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Premium Plans",
    description: "Basic $4.99, Pro $9.99 or Ultimate $19.99 a month: ad-free downloads, 4K and 8K, subtitles and more. 7-day free trial, cancel anytime.",
    path: "/premium",
  });

/** The current plan is shown to a signed-in user: not for a shared cache. */
export const headers: Route.HeadersFunction = () => ({ "cache-control": "private, no-store" });

export async function loader({ request, context }: Route.LoaderArgs): Promise<PremiumPageData> {
  const url = new URL(request.url);
  const user = await getSessionUser(context.accounts, request);
  const { plan, subscription } = user ? await getUserPlan(context.db, user.id) : { plan: "free" as const, subscription: null };
  const cancelsAt = subscription?.cancelAtPeriodEnd && subscription.currentPeriodEnd ? subscription.currentPeriodEnd.toLocaleDateString("en-US", { dateStyle: "medium", timeZone: "UTC" }) : null;
  return {
    loggedIn: Boolean(user),
    currentPlan: plan,
    cancelsAt,
    paymentsEnabled: context.billing !== null,
    selected: planIdFrom(url.searchParams.get("plan")),
    continueCheckout: url.searchParams.get("checkout") === "continue",
    checkoutCanceled: url.searchParams.get("checkout") === "canceled",
  };
}

/**
 * A plan's subscribe form. Logged out: to /login with "Login Required", coming back here with
 * the plan so checkout continues. Logged in: a Checkout Session for that plan, then a 303 to
 * Stripe's hosted page. Everything else is the use-case's answer, shown on this page.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const fields = formFields(await request.formData());
  const plan = planIdFrom(fields.plan);
  const user = await getSessionUser(context.accounts, request);
  if (!user) {
    const back = plan ? `/premium?plan=${plan}&checkout=continue` : "/premium";
    throw redirect(loginUrlFor(back, "login-required"), 303);
  }
  const result = await startCheckout({ db: context.db, logger: context.logger, billing: context.billing }, user, plan);
  if (result.ok) throw redirect(result.url, 303);
  const { status, message, code } = billingError(result.code);
  const title = code === "billing.not_configured" ? "Payments Unavailable" : code === "billing.already_subscribed" ? "Already Subscribed" : "Payment Error";
  const headers: HeadersInit = result.retryAfterSeconds ? { "retry-after": String(result.retryAfterSeconds) } : {};
  return data<SubscribeFailure>({ ok: false, title, message }, { status, headers });
}

export default function Premium() {
  const pageData = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  return <PremiumPlans data={pageData} failure={failure} />;
}
