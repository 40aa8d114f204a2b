import { Check, Clock, Crown } from "#app/components/icons.ts";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { FormStatus } from "#app/lib/forms/form-status.tsx";
import { useHydrated } from "#app/lib/forms/use-hydrated.ts";
import { usePublicConfig } from "#app/lib/hooks/use-public-config.ts";
import { PLAN_CARDS, PREMIUM_FAQ, planTitle, shownFeatures, type PlanCard } from "./plan-catalogue.ts";
import type { PaidPlanId, PlanId } from "./plans.ts";

export interface PremiumPageData {
  loggedIn: boolean;
  currentPlan: PlanId;
  /** the current plan ends at the period end instead of renewing */
  cancelsAt: string | null;
  paymentsEnabled: boolean;
  /** `?plan=`: the plan a visitor picked before logging in */
  selected: PaidPlanId | null;
  /** `?checkout=continue` after login: go on to checkout with `selected` */
  continueCheckout: boolean;
  checkoutCanceled: boolean;
}

export interface SubscribeFailure {
  ok: false;
  title: string;
  message: string;
}

/**
 * One plan's subscribe button: a plain form post to /premium (works without JavaScript); the
 * action answers with a redirect to Stripe Checkout. While it runs the button reads
 * "Processing..." and every plan button is disabled (spec §4 "Subscribe flow").
 */
function SubscribeForm({ plan, busyPlan, disabled, formRef }: { plan: PlanCard; busyPlan: string | null; disabled: boolean; formRef?: React.Ref<HTMLFormElement> }) {
  return (
    <Form method="post" action="/premium" className="mt-8" ref={formRef}>
      <input type="hidden" name="plan" value={plan.id} />
      <Button type="submit" size="lg" className="w-full" variant={plan.recommended ? "default" : "outline"} disabled={disabled || busyPlan !== null}>
        {busyPlan === plan.id ? "Processing..." : plan.buttonText}
      </Button>
    </Form>
  );
}

export function PremiumPlans({ data, failure }: { data: PremiumPageData; failure?: SubscribeFailure }) {
  const { accountManager } = usePublicConfig();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busyPlan = navigation.state !== "idle" && navigation.formAction === "/premium" ? String(navigation.formData?.get("plan") ?? "") : null;
  const continueRef = useRef<HTMLFormElement>(null);
  const continued = useRef(false);
  const subscribed = data.currentPlan !== "free";

  // The plan chosen before logging in: checkout continues by itself once (spec §8 "Login Required").
  useEffect(() => {
    if (!hydrated || continued.current || !data.continueCheckout || !data.selected || subscribed || !data.paymentsEnabled) return;
    continued.current = true;
    continueRef.current?.requestSubmit();
  }, [hydrated, data.continueCheckout, data.selected, subscribed, data.paymentsEnabled]);

  useEffect(() => {
    if (hydrated && failure) toast.error(failure.title, { id: "subscribe-failure", description: failure.message });
  }, [hydrated, failure]);
  useEffect(() => {
    if (hydrated && data.checkoutCanceled) toast("Checkout Canceled", { id: "checkout-canceled", description: "No payment was taken. You can choose a plan whenever you're ready." });
  }, [hydrated, data.checkoutCanceled]);

  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="mx-auto max-w-2xl text-center">
        <p className="flex items-center justify-center gap-2 text-sm font-semibold tracking-wide text-amber-700 uppercase">
          <Crown aria-hidden className="size-5" /> Premium
        </p>
        <h1 className="mt-2 text-3xl font-bold text-slate-900 sm:text-4xl">Choose your plan</h1>
        <p className="mt-3 text-lg text-slate-700">Ad-free downloads, 4K and 8K quality, subtitles and more. Cancel anytime.</p>
      </header>

      <div className="mx-auto mt-8 max-w-2xl space-y-3">
        {hydrated ? null : <FormStatus result={failure ? { ok: false, title: failure.title, message: failure.message, fields: [] } : undefined} />}
        {!hydrated && data.checkoutCanceled ? (
          <FormStatus result={{ ok: true, title: "Checkout Canceled", message: "No payment was taken. You can choose a plan whenever you're ready." }} />
        ) : null}
        {subscribed ? (
          <p role="status" className="rounded-lg border border-green-200 bg-green-50 p-4 text-center text-sm text-green-900">
            Your current plan: <strong>{planTitle(data.currentPlan)}</strong>
            {data.cancelsAt ? ` (ends on ${data.cancelsAt})` : null}. Manage or change it from your{" "}
            <a href="/dashboard" className="font-medium underline">
              dashboard
            </a>
            .
          </p>
        ) : null}
        {!data.paymentsEnabled ? (
          <p role="note" className="rounded-lg border border-amber-200 bg-amber-50 p-4 text-center text-sm text-amber-900">
            Payments are not configured on this server, so plans cannot be bought here.
          </p>
        ) : null}
        {data.selected && !subscribed && data.loggedIn && data.paymentsEnabled ? (
          <div className="rounded-lg border border-brand-200 bg-brand-50 p-4 text-center text-sm text-slate-900">
            <p>
              You chose the <strong>{planTitle(data.selected)}</strong> plan.
            </p>
            <Form method="post" action="/premium" ref={continueRef} className="mt-3">
              <input type="hidden" name="plan" value={data.selected} />
              <Button type="submit" disabled={busyPlan !== null}>
                {busyPlan === data.selected ? "Processing..." : "Continue to checkout"}
              </Button>
            </Form>
          </div>
        ) : null}
      </div>

      <ul className="mt-10 grid gap-6 lg:grid-cols-3" aria-label="Plans">
        {PLAN_CARDS.map((plan) => {
          const current = data.currentPlan === plan.id;
          return (
            <li
              key={plan.id}
              aria-labelledby={`plan-${plan.id}`}
              className={cn(
                "relative flex flex-col rounded-2xl border bg-white p-6 shadow-sm",
                plan.recommended ? "border-brand-600 ring-2 ring-brand-600" : "border-slate-200",
                data.selected === plan.id && !plan.recommended ? "ring-2 ring-amber-400" : null,
              )}
            >
              {plan.recommended ? (
                <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-bold tracking-wide text-white">
                  MOST POPULAR
                </span>
              ) : null}
              <h2 id={`plan-${plan.id}`} className="text-xl font-semibold text-slate-900">
                {plan.title}
              </h2>
              <p className="mt-3">
                <span className="text-4xl font-bold text-slate-900">{plan.priceLabel}</span>
                <span className="text-slate-600">/{plan.duration}</span>
              </p>
              <ul className="mt-6 flex-1 space-y-2 text-sm text-slate-700">
                {shownFeatures(plan, { accountManager }).map((f) =>
                  f.soon ? (
                    <li key={f.label} className="flex flex-wrap items-center gap-x-2 text-slate-500" data-feature="soon">
                      <Clock aria-hidden className="size-4 shrink-0" />
                      <span>{f.label}</span>
                      <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">Coming soon</span>
                    </li>
                  ) : (
                    <li key={f.label} className="flex gap-2" data-feature="included">
                      <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" /> {f.label}
                    </li>
                  ),
                )}
              </ul>
              {current ? (
                <p className="mt-8 rounded-md bg-slate-100 py-2.5 text-center text-sm font-semibold text-slate-800">Your current plan</p>
              ) : (
                <SubscribeForm plan={plan} busyPlan={busyPlan} disabled={subscribed} />
              )}
            </li>
          );
        })}
      </ul>

      <section aria-labelledby="premium-faq" className="mx-auto mt-16 max-w-3xl">
        <h2 id="premium-faq" className="text-2xl font-bold text-slate-900">
          Frequently asked questions
        </h2>
        <div className="mt-6 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
          {PREMIUM_FAQ.map((item) => (
            <details key={item.q} className="group p-5">
              <summary className="cursor-pointer font-medium text-slate-900">{item.q}</summary>
              <p className="mt-3 text-slate-700">{item.a}</p>
            </details>
          ))}
        </div>
      </section>
    </div>
  );
}
