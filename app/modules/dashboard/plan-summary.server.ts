import { PLANS } from "#common/plans.ts";
import type { UserPlan } from "../billing/user-plan.server.ts";
import type { PlanSummary } from "./dashboard-data.ts";

/** The dashboard's plan card for the plan a user holds: null for a free account. */
export function planSummaryOf({ plan, subscription }: UserPlan): PlanSummary | null {
  if (plan === "free") return null;
  return {
    name: PLANS[plan].name,
    startDate: subscription?.createdAt.toISOString() ?? null,
    nextBillingDate: subscription?.currentPeriodEnd?.toISOString() ?? null,
    endsAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
  };
}
