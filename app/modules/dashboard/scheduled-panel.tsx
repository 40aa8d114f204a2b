import { PlanUpgrade } from "./plan-upgrade.tsx";
import { useEffect, useState } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { formatBytes } from "#app/modules/downloader/format-bytes.ts";
import type { FormResult } from "#app/lib/forms/form-problem.ts";
import type { ScheduledView } from "./dashboard-data.ts";

const STATUS_TEXT: Record<ScheduledView["jobs"][number]["status"], { label: string; className: string }> = {
  scheduled: { label: "Scheduled", className: "bg-blue-100 text-blue-800" },
  queued: { label: "Starting", className: "bg-blue-100 text-blue-800" },
  running: { label: "Downloading", className: "bg-amber-100 text-amber-900" },
  done: { label: "Ready", className: "bg-green-100 text-green-800" },
  failed: { label: "Failed", className: "bg-red-100 text-red-800" },
  canceled: { label: "Canceled", className: "bg-slate-200 text-slate-800" },
};

/** An instant in the visitor's own zone once the page runs in their browser; UTC until then (server and first render agree). */
function When({ iso }: { iso: string }) {
  const [text, setText] = useState(() => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC");
  useEffect(() => setText(new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })), [iso]);
  return <time dateTime={iso}>{text}</time>;
}

/** The browser's time zone for the form (UTC without JavaScript, and the label says so). */
function useTimeZone(): string {
  const [zone, setZone] = useState("UTC");
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return zone;
}

/**
 * The Scheduled tab (issue 30 §2): a link, a format and a date and time in the visitor's zone
 * (stored in UTC); the user's scheduled and past jobs with status, progress, the file while it
 * is kept, and cancel or reschedule before a job starts. Works without JavaScript (plain forms);
 * with it, the list refreshes while a job runs.
 */
export function ScheduledPanel({ view, actionResult }: { view: ScheduledView; actionResult?: FormResult<string> }) {
  const zone = useTimeZone();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "schedule";
  const revalidator = useRevalidator();
  const active = view.jobs.some((j) => j.status === "queued" || j.status === "running" || (j.status === "scheduled" && Date.parse(j.runAt) - Date.now() < 60_000));
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 3000);
    return () => clearInterval(timer);
  }, [active, revalidator]);

  return (
    <div className="grid gap-8">
      {view.canSchedule ? (
        <Form method="post" className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="schedule-heading">
          <h3 id="schedule-heading" className="text-lg font-semibold text-slate-900">
            Schedule a download
          </h3>
          <input type="hidden" name="intent" value="schedule" />
          <input type="hidden" name="timeZone" value={zone} />
          <div className="grid gap-2">
            <Label htmlFor="schedule-url">Video URL</Label>
            <Input id="schedule-url" name="url" type="url" required maxLength={4096} placeholder="https://www.youtube.com/watch?v=…" />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-2">
              <Label htmlFor="schedule-format">Format</Label>
              <select id="schedule-format" name="format" required className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm" defaultValue={view.formats[0]?.id}>
                {view.formats.map((f) => (
                  <option key={f.id} value={f.id}>
                    {f.label}
                  </option>
                ))}
              </select>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="schedule-at">Date and time ({zone === "UTC" ? "UTC" : `your time, ${zone}`})</Label>
              <Input id="schedule-at" name="runAtLocal" type="datetime-local" required />
            </div>
          </div>
          {actionResult && !actionResult.ok ? (
            <p role="alert" className="text-sm text-red-700">
              {actionResult.message}
            </p>
          ) : null}
          <p className="text-sm text-slate-600">
            We email you a link when the file is ready. Files are kept for 24 hours. Up to {view.perDay} scheduled downloads a day on your plan.
          </p>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Scheduling..." : "Schedule download"}
            </Button>
          </div>
        </Form>
      ) : (
        <PlanUpgrade text={view.upgradeText} />
      )}

      <section aria-labelledby="jobs-heading">
        <h3 id="jobs-heading" className="mb-3 text-lg font-semibold text-slate-900">
          Your scheduled downloads
        </h3>
        {view.jobs.length === 0 ? (
          <p className="text-sm text-slate-600">Nothing scheduled yet.</p>
        ) : (
          <ul className="grid gap-3">
            {view.jobs.map((job) => {
              const status = STATUS_TEXT[job.status];
              return (
                <li key={job.id} data-testid="job-row" className="grid gap-2 rounded-lg border border-slate-200 p-4">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="min-w-0 truncate font-medium text-slate-900" title={job.title ?? job.url}>
                      {job.title ?? job.url}
                    </p>
                    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${status.className}`}>{status.label}</span>
                  </div>
                  <p className="text-sm text-slate-700">
                    {job.formatLabel} · <When iso={job.runAt} />
                    {job.filesText ? ` · ${job.filesText}` : ""}
                    {job.bytes !== null ? ` · ${formatBytes(job.bytes)}` : ""}
                  </p>
                  {job.status === "running" ? (
                    <div
                      role="progressbar"
                      aria-label="Download progress"
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={job.percent ?? undefined}
                      className="h-2 overflow-hidden rounded bg-slate-200"
                    >
                      <div className="h-full bg-brand-600" style={{ width: `${job.percent ?? 5}%` }} />
                    </div>
                  ) : null}
                  {job.error ? <p className="text-sm text-red-700">{job.error}</p> : null}
                  {job.downloadUrl ? (
                    <p className="text-sm">
                      <a href={job.downloadUrl} className="font-medium text-brand-700 underline">
                        Download {job.filename ?? "the file"}
                      </a>{" "}
                      <span className="text-slate-600">
                        (kept until <When iso={job.expiresAt!} />)
                      </span>
                    </p>
                  ) : null}
                  {job.status === "scheduled" ? (
                    <div className="flex flex-wrap items-end gap-3">
                      <Form method="post" className="flex flex-wrap items-end gap-2">
                        <input type="hidden" name="intent" value="reschedule-job" />
                        <input type="hidden" name="jobId" value={job.id} />
                        <input type="hidden" name="timeZone" value={zone} />
                        <div className="grid gap-1">
                          <Label htmlFor={`move-${job.id}`} className="text-xs">
                            New time
                          </Label>
                          <Input id={`move-${job.id}`} name="runAtLocal" type="datetime-local" required className="h-9" />
                        </div>
                        <Button type="submit" variant="outline" size="sm">
                          Reschedule
                        </Button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="intent" value="cancel-job" />
                        <input type="hidden" name="jobId" value={job.id} />
                        <Button type="submit" variant="outline" size="sm">
                          Cancel
                        </Button>
                      </Form>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </div>
  );
}
