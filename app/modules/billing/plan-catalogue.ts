import type { PaidPlanId } from "./plans.ts";

/**
 * The three plan cards (spec §2 "Premium", §3 "Plan", §6 features, §9 prices). What is shown
 * only: the amount charged is the Stripe price configured for the plan on the server.
 */
/**
 * One line of a plan card. `soon`: sold by the spec but not built yet; the card shows it as
 * "Coming soon", never as included (a paying user must get every line shown as theirs).
 */
export interface PlanFeature {
  label: string;
  soon?: true;
}

const soon = (label: string): PlanFeature => ({ label, soon: true });
const built = (label: string): PlanFeature => ({ label });

export interface PlanCard {
  id: PaidPlanId;
  title: string;
  priceLabel: string;
  numericPrice: number;
  duration: "month";
  buttonText: string;
  recommended: boolean;
  features: PlanFeature[];
}

export const PLAN_CARDS: PlanCard[] = [
  {
    id: "basic",
    title: "Basic",
    priceLabel: "$4.99",
    numericPrice: 4.99,
    duration: "month",
    buttonText: "Subscribe to Basic",
    recommended: false,
    features: [built("Ad-free experience"), built("Unlimited downloads"), built("Up to 1080p quality"), built("Email support"), built("Basic article content")],
  },
  {
    id: "pro",
    title: "Pro",
    priceLabel: "$9.99",
    numericPrice: 9.99,
    duration: "month",
    buttonText: "Subscribe to Pro",
    recommended: true,
    features: [
      built("Everything in Basic"),
      built("4K and 8K downloads"),
      built("Subtitles (SRT and VTT)"),
      soon("Scheduled downloads"),
      soon("Priority support"),
      soon("Full premium articles"),
    ],
  },
  {
    id: "ultimate",
    title: "Ultimate",
    priceLabel: "$19.99",
    numericPrice: 19.99,
    duration: "month",
    buttonText: "Subscribe to Ultimate",
    recommended: false,
    features: [
      built("Everything in Pro"),
      soon("Bulk downloads"),
      soon("API access"),
      soon("Custom download profiles"),
      soon("White-label option"),
      soon("Dedicated account manager"),
      soon("Commercial usage rights"),
    ],
  },
];

/** Every line some plan includes today (the home page's premium block picks from these). */
export function includedFeatures(): string[] {
  return PLAN_CARDS.flatMap((p) => p.features.filter((f) => !f.soon).map((f) => f.label));
}

export function planTitle(id: string): string {
  return PLAN_CARDS.find((p) => p.id === id)?.title ?? "Free";
}

/** Spec §2 "Premium" FAQ. */
export const PREMIUM_FAQ: Array<{ q: string; a: string }> = [
  {
    q: "Can I cancel my subscription at any time?",
    a: "Yes. You can cancel whenever you like from your dashboard. Your premium features stay active until the end of the billing period you have paid for.",
  },
  {
    q: "Can I change my plan later?",
    a: "Yes. You can move to another plan from your dashboard; the change applies at your next billing cycle.",
  },
  {
    q: "Is there a free trial?",
    a: "Yes. New users get a 7-day free trial with their first subscription. You are charged only when the trial ends, and you can cancel before then.",
  },
];
