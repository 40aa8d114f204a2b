import { CatalogueError } from "#common/error-catalogue.ts";
import type { PlanId } from "#common/plans.ts";
import { JobError } from "./job-messages.ts";
import type { ScheduledJobs } from "./scheduled-jobs.server.ts";
import { zonedLocalToUtc } from "./time-zone.ts";

export type JobFormResult = { ok: true; title: string; message: string } | { ok: false; message: string; status: number };

/**
 * The dashboard's Scheduled-tab forms (`intent` schedule, cancel-job, reschedule-job), with the
 * typed time read in the visitor's zone. A refusal comes back as its message; anything else throws.
 */
export async function jobFormAction(jobs: ScheduledJobs | null, owner: { userId: string; plan: PlanId }, fields: Record<string, string>): Promise<JobFormResult> {
  if (!jobs) return { ok: false, message: "Scheduled downloads are not available on this server.", status: 503 };
  const runAt = () => {
    const at = zonedLocalToUtc(fields.runAtLocal ?? "", fields.timeZone || "UTC");
    if (!at) throw new JobError("job.invalid_run_at");
    return at;
  };
  try {
    if (fields.intent === "schedule") {
      await jobs.create(owner, { url: fields.url ?? "", format: fields.format ?? "", runAt: runAt() });
      return { ok: true, title: "Download scheduled", message: "We'll email you a link when the file is ready." };
    }
    if (fields.intent === "cancel-job") {
      await jobs.cancel(owner, fields.jobId ?? "");
      return { ok: true, title: "Canceled", message: "The scheduled download was canceled." };
    }
    await jobs.reschedule(owner, fields.jobId ?? "", runAt());
    return { ok: true, title: "Rescheduled", message: "The download will run at its new time." };
  } catch (err) {
    if (err instanceof CatalogueError) return { ok: false, message: err.message, status: err.status };
    throw err;
  }
}
