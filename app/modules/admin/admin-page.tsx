import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ScrollRegion } from "#app/components/ui/scroll-region.tsx";
import type { AdminFormResult } from "./admin-actions.server.ts";
import type { AdminView } from "./admin-view.server.ts";
import { clientWords, failureWords } from "#app/modules/platform-health/failure-types.ts";

/** A date as the same text on the server and in the browser (no time zone guessing). */
export function adminDate(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const PLAN_NAMES = { free: "Free", basic: "Basic", pro: "Pro", ultimate: "Ultimate" } as const;
const planName = (plan: string | null) => (plan && plan in PLAN_NAMES ? PLAN_NAMES[plan as keyof typeof PLAN_NAMES] : "Visitor");

const ACTION_NAMES: Record<string, string> = {
  "contact.handled": "Marked a message handled",
  "comment.hide": "Hid a comment",
  "comment.delete": "Deleted a comment",
  "article.remove": "Removed an article",
  "job.retry": "Retried a failed job",
};

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10">
      <h2 id={id} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** A one-button form posting an intent to /admin (works without JavaScript). */
function IntentButton({ intent, name, value, label, context, variant = "outline" }: { intent: string; name: string; value: string; label: string; context: string; variant?: "outline" | "destructive" }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === intent && navigation.formData.get(name) === value;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={name} value={value} />
      <Button type="submit" size="sm" variant={variant} disabled={busy}>
        {label}
        <span className="sr-only"> ({context})</span>
      </Button>
    </Form>
  );
}

const cell = "border-b border-slate-200 px-3 py-2 text-left align-top";
const empty = (text: string) => <p className="text-sm text-slate-600">{text}</p>;

/**
 * Resolves, downloads and canary checks per platform, client and egress over the window (issue
 * 32 §5): the worst rows first, each failure type in words with its code.
 */
export function PlatformHealthTable({ health }: { health: AdminView["health"] }) {
  const window = `the last ${health.windowHours} hours`;
  return (
    <>
      <p className="text-sm text-slate-600">
        {health.askedLast.length > 0
          ? `Failing their canary checks, asked after the other YouTube clients until they pass again: ${health.askedLast.join(", ")}.`
          : "Every YouTube client passes its canary checks (or none ran yet): the configured order stands."}
      </p>
      {health.rows.length === 0 ? (
        empty(`No resolves, downloads or canary checks in ${window}.`)
      ) : (
        <ScrollRegion label="Platform health table" className="mt-3">
          <table className="w-full text-sm">
            <caption className="sr-only">Successes and failures by type per platform, client and egress over {window}, most failures first</caption>
            <thead>
              <tr>
                <th scope="col" className={cell}>Platform</th>
                <th scope="col" className={cell}>Client</th>
                <th scope="col" className={cell}>Egress</th>
                <th scope="col" className={cell}>Successes</th>
                <th scope="col" className={cell}>Failures by type</th>
                <th scope="col" className={cell}>Last success</th>
                <th scope="col" className={cell}>Last failure</th>
              </tr>
            </thead>
            <tbody>
              {health.rows.map((r) => (
                <tr key={`${r.platform} ${r.client} ${r.egress}`}>
                  <td className={cell}>{r.platform}</td>
                  <th scope="row" className={`${cell} font-medium`}>{clientWords(r.client)}</th>
                  <td className={cell}>{r.egress}</td>
                  <td className={cell}>{r.successes}</td>
                  <td className={cell}>
                    {r.failures.length === 0 ? (
                      "none"
                    ) : (
                      <ul>
                        {r.failures.map((f) => (
                          <li key={f.type}>
                            {failureWords(f.type) ?? f.type}: {f.count}
                            {failureWords(f.type) ? <span className="text-slate-500"> ({f.type})</span> : null}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className={cell}>{r.lastSuccessAt ? adminDate(r.lastSuccessAt) : "none"}</td>
                  <td className={cell}>{r.lastFailureAt ? adminDate(r.lastFailureAt) : "none"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </>
  );
}

/** /admin for the operator: work lists first, counts after, the log last. */
export function AdminPage({ email, view, result }: { email: string; view: AdminView; result: AdminFormResult | undefined }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold text-slate-900">Admin</h1>
      <p className="mt-2 text-sm text-slate-600">Signed in as {email}. Every action here is logged with your account.</p>
      <div role="status" className="mt-4 empty:hidden">
        {result ? (
          <p className={result.ok ? "rounded-md bg-green-50 px-3 py-2 text-green-900" : "rounded-md bg-red-50 px-3 py-2 text-red-900"} data-testid="admin-result">
            {result.message}
          </p>
        ) : null}
      </div>

      <Section id="admin-messages" title="Contact messages">
        {view.messages.length === 0 ? (
          empty("No messages yet.")
        ) : (
          <ul aria-labelledby="admin-messages" className="grid gap-3">
            {view.messages.map((m) => (
              <li key={m.id} data-testid="admin-message" className={`rounded-lg border p-4 ${m.handledAt ? "border-slate-200 bg-slate-50" : "border-slate-300 bg-white"}`}>
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-slate-600">
                  {m.priority ? <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">Priority</span> : null}
                  <span>{planName(m.plan)}</span>
                  <span className="break-all">
                    {m.name} &lt;{m.email}&gt;
                  </span>
                  <span>{adminDate(m.createdAt)}</span>
                </div>
                {m.subject ? <p className="mt-2 font-medium break-words text-slate-900">{m.subject}</p> : null}
                <p className="mt-1 text-sm break-words whitespace-pre-line text-slate-800">{m.message}</p>
                <div className="mt-3">
                  {m.handledAt ? (
                    <p className="text-sm text-slate-600">
                      Handled {adminDate(m.handledAt)} by {m.handledBy}
                    </p>
                  ) : (
                    <IntentButton intent="mark-handled" name="messageId" value={m.id} label="Mark handled" context={`message from ${m.email}`} />
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="admin-comments" title="Comments">
        <p className="mb-3 text-sm text-slate-600">Reported comments first. Hidden comments leave the article; deleted ones are gone with their replies.</p>
        {view.comments.length === 0 ? (
          empty("No comments yet.")
        ) : (
          <ul aria-labelledby="admin-comments" className="grid gap-3">
            {view.comments.map((c) => (
              <li key={c.id} data-testid="admin-comment" className="rounded-lg border border-slate-300 bg-white p-4">
                <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm text-slate-600">
                  {c.reports > 0 ? (
                    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                      {c.reports === 1 ? "1 report" : `${c.reports} reports`}
                    </span>
                  ) : null}
                  <span className="font-medium text-slate-900">{c.name}</span>
                  <a href={`/blog/${c.articleSlug}`} className="break-all text-brand-700 underline">
                    {c.articleSlug}
                  </a>
                  <span>{adminDate(c.createdAt)}</span>
                  <span>Status: {c.status}</span>
                </div>
                <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-800">{c.content}</p>
                {c.reasons.length > 0 ? (
                  <p className="mt-2 text-sm break-words text-slate-600">Reasons given: {c.reasons.join("; ")}</p>
                ) : null}
                <div className="mt-3 flex flex-wrap gap-2">
                  {c.status !== "hidden" ? <IntentButton intent="hide-comment" name="commentId" value={c.id} label="Hide" context={`comment by ${c.name}`} /> : null}
                  <IntentButton intent="delete-comment" name="commentId" value={c.id} label="Delete" context={`comment by ${c.name}`} variant="destructive" />
                </div>
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section id="admin-article" title="Remove an article">
        <Form method="post" preventScrollReset className="grid max-w-xl gap-3">
          <input type="hidden" name="intent" value="remove-article" />
          <div className="grid gap-1">
            <Label htmlFor="admin-slug">Article slug (the part after /blog/)</Label>
            <Input id="admin-slug" name="slug" required autoComplete="off" />
          </div>
          <div className="grid gap-1">
            <Label htmlFor="admin-reason">Reason (kept in the log)</Label>
            <Input id="admin-reason" name="reason" maxLength={200} autoComplete="off" />
          </div>
          <div>
            <Button type="submit" variant="destructive">
              Remove article
            </Button>
          </div>
        </Form>
      </Section>

      <Section id="admin-platforms" title="Platform requests">
        {view.platforms.length === 0 ? (
          empty("No platform requests yet.")
        ) : (
          <ScrollRegion label="Platform requests table">
            <table className="w-full text-sm">
              <caption className="sr-only">Requests per platform, most requested first</caption>
              <thead>
                <tr>
                  <th scope="col" className={cell}>Platform</th>
                  <th scope="col" className={cell}>Requests</th>
                  <th scope="col" className={cell}>Latest</th>
                </tr>
              </thead>
              <tbody>
                {view.platforms.map((p) => (
                  <tr key={p.platform}>
                    <th scope="row" className={`${cell} font-medium break-all`}>{p.platform}</th>
                    <td className={cell}>{p.requests}</td>
                    <td className={cell}>{adminDate(p.latest)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>

      <Section id="admin-health" title="Platform health">
        <PlatformHealthTable health={view.health} />
      </Section>

      <Section id="admin-users" title="Users and plans">
        <table className="w-full max-w-sm text-sm">
          <caption className="sr-only">Accounts by the plan they hold now</caption>
          <tbody>
            {view.users.plans.map((p) => (
              <tr key={p.plan}>
                <th scope="row" className={`${cell} font-medium`}>{PLAN_NAMES[p.plan]}</th>
                <td className={cell}>{p.users}</td>
              </tr>
            ))}
            <tr>
              <th scope="row" className={`${cell} font-semibold`}>All accounts</th>
              <td className={`${cell} font-semibold`}>{view.users.total}</td>
            </tr>
          </tbody>
        </table>
      </Section>

      <Section id="admin-jobs" title="Job queue">
        {view.jobs.counts.length === 0 ? (
          empty("No scheduled, bulk or playlist jobs yet.")
        ) : (
          <table className="w-full max-w-sm text-sm">
            <caption className="sr-only">Jobs by status</caption>
            <tbody>
              {view.jobs.counts.map((c) => (
                <tr key={c.status}>
                  <th scope="row" className={`${cell} font-medium capitalize`}>{c.status}</th>
                  <td className={cell}>{c.jobs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {view.jobs.running.length > 0 ? (
          <>
            <h3 id="admin-running-jobs" className="mt-6 font-semibold text-slate-900">Running jobs</h3>
            <ul aria-labelledby="admin-running-jobs" className="mt-2 grid gap-2 text-sm">
              {view.jobs.running.map((j) => (
                <li key={j.id} data-testid="admin-running-job" className="rounded-md border border-slate-200 p-3 break-words">
                  <span className="font-medium">{j.kind}</span> for {j.owner}
                  {j.startedAt ? `, started ${adminDate(j.startedAt)}` : ""}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {view.jobs.failed.length > 0 ? (
          <>
            <h3 id="admin-failed-jobs" className="mt-6 font-semibold text-slate-900">Failed jobs</h3>
            <p className="mt-1 text-sm text-slate-600">Retry runs a job again from the start, now; the owner&apos;s plan is checked again when it runs.</p>
            <ul aria-labelledby="admin-failed-jobs" className="mt-2 grid gap-2 text-sm">
              {view.jobs.failed.map((j) => (
                <li key={j.id} data-testid="admin-failed-job" className="flex flex-wrap items-start justify-between gap-2 rounded-md border border-slate-200 p-3">
                  <p className="min-w-0 break-words">
                    <span className="font-medium">{j.kind}</span> for {j.owner}
                    {j.finishedAt ? `, ${adminDate(j.finishedAt)}` : ""}: {j.error || "no error recorded"}
                  </p>
                  <IntentButton intent="retry-job" name="jobId" value={j.id} label="Retry" context={`${j.kind} job for ${j.owner}`} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </Section>

      <Section id="admin-log" title="Recent admin actions">
        {view.actions.length === 0 ? (
          empty("Nothing done here yet.")
        ) : (
          <ol aria-labelledby="admin-log" className="grid gap-2 text-sm" data-testid="admin-log">
            {view.actions.map((a) => (
              <li key={a.id} className="break-words">
                <span className="text-slate-600">{adminDate(a.createdAt)}</span> · {a.admin} · {ACTION_NAMES[a.action] ?? a.action}: {a.target}
                {a.detail ? ` (${a.detail})` : ""}
              </li>
            ))}
          </ol>
        )}
      </Section>
    </div>
  );
}
