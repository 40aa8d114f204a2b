import { holds, limitOf, type PlanId } from "#common/plans.ts";
import { formatsOfPlan } from "#app/modules/dashboard/plan-formats.server.ts";
import type { ScheduledView } from "#app/modules/dashboard/dashboard-data.ts";
import { FORMAT_CATALOG, isFormatId } from "#engine/formats.ts";
import { planRequired } from "#engine/refusals.ts";
import { callerOfOwner, jobView, type JobView, type ScheduledJobs } from "./scheduled-jobs.server.ts";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** the line a job's row is known by: the video's title, or a ZIP's name */
function titleOf(v: JobView): string | null {
  if (v.kind === "scheduled") return v.items[0]?.title ?? null;
  if (v.name) return v.name;
  return v.kind === "playlist" ? "Playlist" : `ZIP of ${plural(v.items.length, "link")}`;
}

/** a ZIP job's files: what it holds before it runs, how they went after */
function filesTextOf(v: JobView): string | null {
  if (v.kind === "scheduled") return null;
  const done = v.items.filter((i) => i.status === "done").length;
  const failed = v.items.filter((i) => i.status === "failed").length;
  if (v.items.length === 0) return "videos listed when it runs";
  if (done + failed === 0) return plural(v.items.length, v.kind === "playlist" ? "video" : "link");
  return `${done} of ${plural(v.items.length, "file")}${failed > 0 ? `, ${failed} failed` : ""}`;
}

/** What the dashboard's Scheduled tab shows a user (their jobs and the formats their plan has). */
export async function scheduledViewOf(
  deps: { jobs: ScheduledJobs; fileLink(job: { jobId: string; userId: string; expiresAt: Date }): string },
  owner: { userId: string; plan: PlanId },
  now = new Date(),
): Promise<ScheduledView> {
  const rows = await deps.jobs.list(owner, 50);
  return {
    canSchedule: holds(owner.plan, "scheduledDownloads"),
    upgradeText: planRequired(callerOfOwner(owner), "scheduledDownloads").message,
    perDay: limitOf(owner.plan, "jobsPerDay"),
    formats: formatsOfPlan(owner.plan),
    jobs: rows.map((row) => {
      const link = row.status === "done" && row.expiresAt ? deps.fileLink({ jobId: row.id, userId: row.userId, expiresAt: row.expiresAt }) : null;
      const v = jobView(row, now, link);
      return {
        id: v.id,
        status: v.status,
        url: v.url,
        title: titleOf(v),
        filesText: filesTextOf(v),
        formatLabel: isFormatId(v.format) ? FORMAT_CATALOG[v.format].label : v.format,
        runAt: v.runAt,
        percent: v.progress.percent,
        bytes: v.bytes,
        filename: v.filename,
        downloadUrl: v.downloadUrl,
        expiresAt: v.expiresAt,
        error: v.error,
      };
    }),
  };
}
