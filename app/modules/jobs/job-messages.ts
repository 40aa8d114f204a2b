import { CatalogueError, defineErrors } from "#common/error-catalogue.ts";

/** What the scheduled-download API and the dashboard's jobs panel answer (issue 30). Browser-safe. */
export const JOB_ERRORS = defineErrors({
  "job.login_required": { status: 401, message: "Log in to schedule downloads." },
  "job.not_found": { status: 404, message: "We couldn't find that job." },
  "job.invalid_run_at": { status: 400, message: "Choose a date and time from now up to 30 days ahead." },
  "job.invalid_format": { status: 400, message: "Choose one of the formats on offer." },
  "job.invalid_link": { status: 400, message: "Please enter a valid video link." },
  "job.too_many_links": { status: 400, message: "A bulk job takes at most as many links as your plan allows." },
  "job.daily_limit": { status: 429, message: "You've scheduled as many downloads as your plan allows in a day. Please try again tomorrow." },
  "job.not_changeable": { status: 409, message: "This job has already started or ended, so it can no longer be changed or canceled." },
  "job.link_invalid": { status: 403, message: "This file link is not valid or has expired. Open your dashboard for a new one." },
  "job.file_gone": { status: 410, message: "This file is no longer kept. Files of finished jobs are kept for 24 hours." },
});

export type JobErrorCode = keyof typeof JOB_ERRORS;

export class JobError extends CatalogueError<JobErrorCode> {
  static override readonly kind = "job";
  constructor(code: JobErrorCode, message?: string) {
    super(JobError.kind, code, JOB_ERRORS[code].status, message ?? JOB_ERRORS[code].message);
  }
}
