import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { subscriptions } from "#db/schema/index.ts";
import { isPaidPlanId, PLAN_IDS, type PlanId } from "#common/plans.ts";

/**
 * Stripe statuses that keep the benefits: a trial, a paid period, and a renewal payment Stripe is
 * still retrying ("past_due"; Stripe ends the subscription when its retries run out).
 */
export const ENTITLED_STATUSES = ["trialing", "active", "past_due"] as const;

export interface UserPlan {
  plan: PlanId;
  /** the subscription that grants it, if any */
  subscription: typeof subscriptions.$inferSelect | null;
}

/**
 * The plan a user holds right now: the best entitled subscription whose period has not ended.
 * A subscription with no period end recorded yet counts only while its status is entitled.
 */
export async function getUserPlan(db: Database, userId: string, now: Date = new Date()): Promise<UserPlan> {
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, [...ENTITLED_STATUSES])))
    .orderBy(desc(subscriptions.updatedAt));
  const rank = (plan: PlanId) => PLAN_IDS.indexOf(plan);
  let best: UserPlan = { plan: "free", subscription: null };
  for (const row of rows) {
    if (!isPaidPlanId(row.plan)) continue;
    if (row.currentPeriodEnd && row.currentPeriodEnd.getTime() <= now.getTime()) continue;
    if (rank(row.plan) > rank(best.plan)) best = { plan: row.plan, subscription: row };
  }
  return best;
}
