import { PAID_PLAN_IDS, PLANS, RIGHTS, type PaidPlanId } from "#common/plans.ts";

/**
 * The three plan cards (spec §2 "Premium", §3 "Plan", §6 features, §9 prices), drawn from the
 * plan table (common/plans.ts): names, prices and feature lines. What is shown only: the amount
 * charged is the Stripe price configured for the plan on the server.
 */
/**
 * One line of a plan card. `soon`: sold by the spec but not built yet; the card shows it as
 * "Coming soon", never as included (a paying user must get every line shown as theirs).
 */
export interface PlanFeature {
  label: string;
  soon?: true;
  /** shown only when the server has this setting (PublicConfig's flag of the same name) */
  onlyWhen?: "accountManager";
}

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

/** The card marked MOST POPULAR: a choice of the page, not a right of the plan. */
const RECOMMENDED: PaidPlanId = "pro";

/** "Everything in <the included plan>", then each right the plan adds that has a card line. */
function featuresOf(id: PaidPlanId): PlanFeature[] {
  const plan = PLANS[id];
  const everything: PlanFeature[] = plan.includes ? [{ label: `Everything in ${PLANS[plan.includes].name}` }] : [];
  const lines = plan.adds.flatMap((right): PlanFeature[] => {
    const spec: { card: string | null; built: boolean; onlyWhen?: "accountManager" } = RIGHTS[right];
    if (spec.card === null) return [];
    const line: PlanFeature = spec.built ? { label: spec.card } : { label: spec.card, soon: true };
    return [spec.onlyWhen ? { ...line, onlyWhen: spec.onlyWhen } : line];
  });
  return [...everything, ...lines];
}

function cardOf(id: PaidPlanId): PlanCard {
  const { name, monthlyPrice } = PLANS[id];
  if (monthlyPrice === null) throw new Error(`plan ${id} has no price`);
  return {
    id,
    title: name,
    priceLabel: `$${monthlyPrice.toFixed(2)}`,
    numericPrice: monthlyPrice,
    duration: "month",
    buttonText: `Subscribe to ${name}`,
    recommended: id === RECOMMENDED,
    features: featuresOf(id),
  };
}

export const PLAN_CARDS: PlanCard[] = PAID_PLAN_IDS.map(cardOf);

/** Every line some plan includes today (the home page's premium block picks from these). */
export function includedFeatures(): string[] {
  return PLAN_CARDS.flatMap((p) => p.features.filter((f) => !f.soon && !f.onlyWhen).map((f) => f.label));
}

/** A card's lines on this server: a line that needs a setting the server lacks is left out. */
export function shownFeatures(card: PlanCard, configured: { accountManager: boolean }): PlanFeature[] {
  return card.features.filter((f) => !f.onlyWhen || configured[f.onlyWhen]);
}

export function planTitle(id: string): string {
  return PLAN_CARDS.find((p) => p.id === id)?.title ?? PLANS.free.name;
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
