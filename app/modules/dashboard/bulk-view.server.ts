import { holds, limitOf, type PlanId } from "#common/plans.ts";
import { formatsOfPlan } from "#app/modules/dashboard/plan-formats.server.ts";
import { planRequired } from "#engine/refusals.ts";
import { callerOfOwner } from "#app/modules/jobs/scheduled-jobs.server.ts";
import type { BulkView } from "./dashboard-data.ts";

/**
 * What the dashboard's Bulk tab offers a user: the plan's link limit and formats, and the
 * download profiles the loader read (downloaderProfilesOf), or why not.
 */
export function bulkViewOf(owner: { userId: string; plan: PlanId }, profiles: BulkView["profiles"] = []): BulkView {
  const canBulk = holds(owner.plan, "bulkDownloads");
  return {
    canBulk,
    upgradeText: planRequired(callerOfOwner(owner), "bulkDownloads").message,
    maxLinks: canBulk ? (limitOf(owner.plan, "linksPerBulkJob") ?? 0) : 0,
    formats: formatsOfPlan(owner.plan),
    profiles: canBulk ? profiles : [],
  };
}
