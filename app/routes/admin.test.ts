import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { adminActions, blogCommentReports, blogComments, contactMessages, downloadJobs, platformRequests } from "#db/schema/index.ts";
import { cookieHeaderFrom, insertActiveSubscription, openConfirmationLink, testAccounts } from "#tests/support/accounts.ts";
import { formPost, routeContext, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { countComments, listComments } from "#app/modules/blog/comments/comments.server.ts";
import { getArticleBySlug } from "#app/modules/blog/articles.server.ts";
import type { AdminView } from "#app/modules/admin/admin-view.server.ts";
import { createScheduledJobs, SCHEDULED_DOWNLOAD_QUEUE, type JobQueue } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import pino from "pino";
import { PlatformHealthTable } from "#app/modules/admin/admin-page.tsx";
import { createHealthCounts } from "#app/modules/platform-health/health-counts.server.ts";
import { action, headers, loader } from "./admin.tsx";

const ADMIN_EMAIL = "ops@example.com";

describe.each(testDatabases)("/admin on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  async function setup(config: { ADMIN_EMAIL?: string } = { ADMIN_EMAIL }) {
    handle = await open();
    const db = handle.db;
    const accounts = testAccounts(db);
    // the pages whose cached copies an action dropped
    const forgotten: string[] = [];
    // the job queue: what it was sent and cancelled; `refuse` makes the next send fail
    const queue = { sent: [] as Array<{ queue: string; jobId: string; id: string; startAfter: Date }>, cancelled: [] as string[], refuse: false };
    const jobQueue: JobQueue = {
      send: async (name, data, opts) => {
        if (queue.refuse) throw new Error("queue down");
        queue.sent.push({ queue: name, jobId: data.jobId, ...opts });
        return opts.id;
      },
      cancel: async (_name, id) => void queue.cancelled.push(id),
    };
    const context = {
      ...routeContext(db),
      accounts,
      config: { ...routeContext(db).config, ...config },
      forgetPage: (p: string) => void forgotten.push(p),
      jobs: { scheduled: createScheduledJobs({ db, queue: jobQueue }) },
    };
    /** a new account's cookie: unverified, or verified through its mailed link */
    const signUp = async (email: string, verified: boolean) => {
      const res = await accounts.auth.api.signUpEmail({ body: { name: email.split("@")[0]!, email, password: "correct horse battery" }, asResponse: true });
      const { user } = (await res.clone().json()) as { user: { id: string } };
      const cookie = verified ? cookieHeaderFrom(await openConfirmationLink(accounts, email.toLowerCase())) : cookieHeaderFrom(res);
      return { id: user.id, cookie };
    };
    const get = async (cookie = "") => {
      const request = new Request("http://localhost/admin", cookie ? { headers: { cookie } } : {});
      return unwrap(await loader({ request, context, params: {} } as never));
    };
    const post = async (fields: Record<string, string>, cookie = "") => {
      const request = formPost("http://localhost/admin", fields);
      if (cookie) request.headers.set("cookie", cookie);
      return unwrap(await action({ request, context, params: {} } as never));
    };
    return { db, signUp, get, post, forgotten, queue };
  }

  const notFound = { admin: false, path: "/admin" };

  it.skipIf(skip)("is the ordinary 404 for a visitor, another member, and ADMIN_EMAIL before it is verified", async () => {
    const { signUp, get } = await setup();
    expect(await get()).toMatchObject({ status: 404, body: notFound });
    const member = await signUp("member@example.com", true);
    expect(await get(member.cookie)).toMatchObject({ status: 404, body: notFound });
    const unverified = await signUp("OPS@example.com", false);
    expect(await get(unverified.cookie)).toMatchObject({ status: 404, body: notFound });
    // nothing else in the answer: no view, no email
    expect(Object.keys((await get(unverified.cookie)).body as object).sort()).toEqual(["admin", "path", "redirectTo"]);
  });

  it.skipIf(skip)("is a 404 for every account when ADMIN_EMAIL is unset", async () => {
    const { signUp, get } = await setup({});
    const ops = await signUp(ADMIN_EMAIL, true);
    expect(await get(ops.cookie)).toMatchObject({ status: 404, body: notFound });
  });

  it.skipIf(skip)("shows the verified admin the work lists, priority messages and reported comments first, and counts", async () => {
    // ADMIN_EMAIL is compared case-insensitively
    const { db, signUp, get } = await setup({ ADMIN_EMAIL: "Ops@Example.com" });
    const ops = await signUp(ADMIN_EMAIL, true);
    const pro = await signUp("pro@example.com", true);
    await insertActiveSubscription(db, pro.id, "pro");
    await db.insert(contactMessages).values([
      { name: "Ann", email: "ann@example.com", subject: "Old question", message: "Hi", createdAt: new Date("2026-11-01T10:00:00Z") },
      { name: "Bo", email: "bo@example.com", subject: "Newest", message: "Hi", createdAt: new Date("2026-11-03T10:00:00Z") },
      { name: "Cy", email: "cy@example.com", subject: "Priority one", message: "Help", plan: "pro", priority: true, createdAt: new Date("2026-11-02T10:00:00Z") },
    ]);
    const [, loud] = await db
      .insert(blogComments)
      .values([
        { articleSlug: "a-post", name: "Quiet", email: "q@example.com", content: "Nice", status: "approved", createdAt: new Date("2026-11-05T00:00:00Z") },
        { articleSlug: "a-post", name: "Loud", email: "l@example.com", content: "Spam", status: "approved", createdAt: new Date("2026-11-01T00:00:00Z") },
      ])
      .returning();
    await db.insert(blogCommentReports).values([
      { commentId: loud!.id, visitorId: "v1", reason: "spam" },
      { commentId: loud!.id, visitorId: "v2" },
    ]);
    await db.insert(platformRequests).values([{ platformName: "Rumble" }, { platformName: " rumble" }, { platformName: "Kick" }]);

    const res = await get(ops.cookie);
    expect(res.status).toBe(200);
    const { view } = res.body as { view: AdminView };
    expect(view.messages.map((m) => m.subject)).toEqual(["Priority one", "Newest", "Old question"]);
    expect(view.comments.map((c) => [c.name, c.reports, c.reasons])).toEqual([
      ["Loud", 2, ["spam"]],
      ["Quiet", 0, []],
    ]);
    expect(view.platforms.map((p) => [p.platform, p.requests])).toEqual([
      ["rumble", 2],
      ["kick", 1],
    ]);
    expect(view.users).toEqual({ total: 2, plans: [{ plan: "free", users: 1 }, { plan: "basic", users: 0 }, { plan: "pro", users: 1 }, { plan: "ultimate", users: 0 }] });
    expect(headers({} as never)).toEqual({ "cache-control": "private, no-store" });
  });

  it.skipIf(skip)("shows the platform health per client and egress over the window, and the clients failing their canaries", async () => {
    const { db, signUp, get } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const now = Date.now();
    const counts = createHealthCounts({ db, logger: pino({ level: "silent" }), flushMs: 3_600_000 });
    const add = (client: string, egress: string, source: "resolve" | "download" | "canary", code: string | null, at: number) =>
      counts.add({ platform: "youtube", client, egress, source, ok: code === null, code, at });
    add("VISIONOS", "direct", "canary", null, now - 3_600_000);
    add("VISIONOS", "direct", "canary", "video.bot_check", now - 60_000);
    add("VISIONOS", "direct", "resolve", "video.bot_check", now - 30_000);
    add("ANDROID", "proxy-1", "download", null, now - 10_000);
    add("ANDROID", "proxy-1", "download", "client.needs_token", now - 20_000);
    // the canary's check of one egress: the whole ladder there, which moves no client
    add("all", "proxy-2", "canary", "video.bot_check", now - 5_000);
    await counts.close();

    const { view } = (await get(ops.cookie)).body as { view: AdminView };
    expect(view.health.windowHours).toBe(24);
    expect(view.health.askedLast).toEqual(["VISIONOS"]);
    expect(view.health.rows.map((r) => [r.client, r.egress, r.successes, r.failures])).toEqual([
      ["VISIONOS", "direct", 1, [{ type: "video.bot_check", count: 2 }]],
      ["all", "proxy-2", 0, [{ type: "video.bot_check", count: 1 }]],
      ["ANDROID", "proxy-1", 1, [{ type: "client.needs_token", count: 1 }]],
    ]);

    const html = renderToStaticMarkup(createElement(PlatformHealthTable, { health: view.health }));
    expect(html).toContain("<caption");
    for (const column of ["Platform", "Client", "Egress", "Successes", "Failures by type", "Last success", "Last failure"]) expect(html).toContain(`<th scope="col" class="${"border-b border-slate-200 px-3 py-2 text-left align-top"}">${column}</th>`);
    expect(html).toMatch(/<th scope="row"[^>]*>VISIONOS<\/th>/);
    expect(html).toMatch(/<th scope="row"[^>]*>all \(the whole ladder: the canary&#x27;s check of this egress\)<\/th>/);
    expect(html).toContain("bot wall: 2");
    expect(html).toContain("token needed: 1");
    expect(html).toContain("asked after the other YouTube clients until they pass again: VISIONOS.");
  });

  it.skipIf(skip)("hides a reported comment and marks a message handled, each logged with the admin's id", async () => {
    const { db, signUp, get, post, forgotten } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const [comment] = await db.insert(blogComments).values({ articleSlug: "a-post", name: "Loud", email: "l@example.com", content: "Spam", status: "approved" }).returning();
    await db.insert(blogCommentReports).values({ commentId: comment!.id, visitorId: "v1" });
    const [message] = await db.insert(contactMessages).values({ name: "Ann", email: "ann@example.com", subject: "Hello", message: "Hi" }).returning();

    expect(await post({ intent: "hide-comment", commentId: comment!.id }, ops.cookie)).toEqual({ status: 200, body: { ok: true, message: "Comment hidden." } });
    // the article's cached copy goes at once: the next visitor sees it without the comment
    expect(forgotten).toEqual(["/blog/a-post"]);
    const [hidden] = await db.select().from(blogComments).where(eq(blogComments.id, comment!.id));
    expect(hidden?.status).toBe("hidden");
    // the article no longer shows it, nor counts it
    expect(await listComments(db, "a-post", null)).toEqual([]);
    expect(await countComments(db, "a-post")).toBe(0);
    // hiding twice changes nothing and logs nothing
    expect((await post({ intent: "hide-comment", commentId: comment!.id }, ops.cookie)).status).toBe(404);

    expect((await post({ intent: "mark-handled", messageId: message!.id }, ops.cookie)).status).toBe(200);
    const [handled] = await db.select().from(contactMessages);
    expect(handled?.handledBy).toBe(ops.id);
    expect(handled?.handledAt).toBeInstanceOf(Date);

    const log = await db.select().from(adminActions).orderBy(adminActions.createdAt);
    expect(log.map((l) => [l.adminUserId, l.adminEmail, l.action, l.target])).toEqual([
      [ops.id, ADMIN_EMAIL, "comment.hide", comment!.id],
      [ops.id, ADMIN_EMAIL, "contact.handled", message!.id],
    ]);
    const { view } = (await get(ops.cookie)).body as { view: AdminView };
    expect(view.actions.map((a) => [a.admin, a.action])).toEqual(
      expect.arrayContaining([
        [ADMIN_EMAIL, "comment.hide"],
        [ADMIN_EMAIL, "contact.handled"],
      ]),
    );
    expect(view.messages[0]).toMatchObject({ handledBy: ADMIN_EMAIL });
  });

  it.skipIf(skip)("deletes a comment, logged; refuses every action to anyone but the admin", async () => {
    const { db, signUp, post } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const member = await signUp("member@example.com", true);
    const [comment] = await db.insert(blogComments).values({ articleSlug: "a-post", name: "Loud", email: "l@example.com", content: "Spam", status: "approved" }).returning();

    expect((await post({ intent: "hide-comment", commentId: comment!.id })).status).toBe(404);
    expect((await post({ intent: "delete-comment", commentId: comment!.id }, member.cookie)).status).toBe(404);
    expect(await db.select().from(blogComments)).toHaveLength(1);
    expect(await db.select().from(adminActions)).toHaveLength(0);

    expect((await post({ intent: "delete-comment", commentId: comment!.id }, ops.cookie)).status).toBe(200);
    expect(await db.select().from(blogComments)).toHaveLength(0);
    expect((await db.select().from(adminActions)).map((l) => [l.adminUserId, l.action])).toEqual([[ops.id, "comment.delete"]]);
    expect((await post({ intent: "nonsense" }, ops.cookie)).status).toBe(400);
  });

  it.skipIf(skip)("removes an article (then Article Not Found), logged with the reason; an unknown or removed slug is refused", async () => {
    const { db, signUp, post } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const slug = "save-audio-offline-listening-podcasts";
    expect(await post({ intent: "remove-article", slug: "no-such-article", reason: "" }, ops.cookie)).toMatchObject({ status: 404 });
    expect(await post({ intent: "remove-article", slug: "../etc", reason: "" }, ops.cookie)).toMatchObject({ status: 400 });
    expect(await post({ intent: "remove-article", slug, reason: "outdated" }, ops.cookie)).toEqual({ status: 200, body: { ok: true, message: `Article ${slug} removed.` } });
    expect(await getArticleBySlug(db, slug)).toEqual({ status: "removed" });
    expect(await post({ intent: "remove-article", slug, reason: "again" }, ops.cookie)).toMatchObject({ status: 409 });
    expect((await db.select().from(adminActions)).map((l) => [l.adminUserId, l.action, l.target, l.detail])).toEqual([[ops.id, "article.remove", slug, "outdated"]]);
  });

  it.skipIf(skip)("counts jobs by status and lists the failed ones with their error", async () => {
    const { db, signUp, get } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const job = (id: string, status: "done" | "failed" | "running", error: string | null = null) => ({
      id,
      userId: ops.id,
      kind: "scheduled" as const,
      format: "mp4-720",
      items: [],
      status,
      runAt: new Date("2026-11-01T00:00:00Z"),
      error,
      finishedAt: new Date("2026-11-01T00:05:00Z"),
    });
    await db.insert(downloadJobs).values([job("j1", "done"), job("j2", "failed", "The video is private."), job("j3", "done"), { ...job("j4", "running"), startedAt: new Date("2026-11-01T00:01:00Z"), finishedAt: null }]);
    const { view } = (await get(ops.cookie)).body as { view: AdminView };
    expect(view.jobs.counts).toEqual([
      { status: "done", jobs: 2 },
      { status: "failed", jobs: 1 },
      { status: "running", jobs: 1 },
    ]);
    expect(view.jobs.running).toEqual([{ id: "j4", kind: "scheduled", owner: ADMIN_EMAIL, startedAt: "2026-11-01T00:01:00.000Z" }]);
    expect(view.jobs.failed).toEqual([{ id: "j2", kind: "scheduled", owner: ADMIN_EMAIL, error: "The video is private.", finishedAt: "2026-11-01T00:05:00.000Z" }]);
  });

  it.skipIf(skip)("retries a failed job: back to scheduled, due now, with a fresh queue job the queue gets; logged; anything not failed is refused", async () => {
    const { db, signUp, get, post, queue } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const owner = await signUp("owner@example.com", true);
    const failedAt = new Date("2026-11-01T00:05:00Z");
    const links = ["https://www.youtube.com/watch?v=aaaaaaaaaaa", "https://www.youtube.com/watch?v=bbbbbbbbbbb"];
    await db.insert(downloadJobs).values({
      id: "bulk-1",
      userId: owner.id,
      kind: "bulk",
      format: "mp4-720",
      items: [
        { url: links[0]!, title: "First", status: "done", bytes: 1200, error: null },
        { url: links[1]!, title: null, status: "failed", bytes: null, error: "The video is private." },
      ],
      status: "failed",
      runAt: new Date("2026-11-01T00:00:00Z"),
      queueJobId: "old-queue-job",
      bytesDone: 1200,
      bytesTotal: 5000,
      error: "None of the links could be downloaded.",
      startedAt: new Date("2026-11-01T00:00:01Z"),
      finishedAt: failedAt,
    });

    // the button's form, as the page renders it
    const before = Date.now();
    expect(await post({ intent: "retry-job", jobId: "bulk-1" }, ops.cookie)).toEqual({ status: 200, body: { ok: true, message: "The bulk job for owner@example.com will run again now." } });
    const [row] = await db.select().from(downloadJobs).where(eq(downloadJobs.id, "bulk-1"));
    expect(row).toMatchObject({ status: "scheduled", error: null, startedAt: null, finishedAt: null, bytesDone: 0, bytesTotal: null });
    expect(row!.items).toEqual(links.map((url, i) => ({ url, title: i === 0 ? "First" : null, status: "pending", bytes: null, error: null })));
    expect(row!.runAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row!.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    // the queue got a new job, named on the row, due now; the old one is cancelled
    expect(row!.queueJobId).not.toBe("old-queue-job");
    expect(queue.sent).toEqual([{ queue: SCHEDULED_DOWNLOAD_QUEUE, jobId: "bulk-1", id: row!.queueJobId, startAfter: row!.runAt }]);
    expect(queue.cancelled).toEqual(["old-queue-job"]);
    expect((await db.select().from(adminActions)).map((l) => [l.adminUserId, l.adminEmail, l.action, l.target, l.detail])).toEqual([
      [ops.id, ADMIN_EMAIL, "job.retry", "bulk-1", "bulk for owner@example.com, failed with: None of the links could be downloaded."],
    ]);
    const { view } = (await get(ops.cookie)).body as { view: AdminView };
    expect(view.jobs.failed).toEqual([]);
    expect(view.jobs.counts).toEqual([{ status: "scheduled", jobs: 1 }]);

    // it is no longer failed: a second Retry (another tab) is refused, nothing sent or logged
    expect(await post({ intent: "retry-job", jobId: "bulk-1" }, ops.cookie)).toEqual({ status: 409, body: { ok: false, message: "Only a failed job can be run again; this one is scheduled.", status: 409 } });
    for (const status of ["done", "canceled", "running"] as const) {
      await db.update(downloadJobs).set({ status }).where(eq(downloadJobs.id, "bulk-1"));
      expect(await post({ intent: "retry-job", jobId: "bulk-1" }, ops.cookie)).toEqual({ status: 409, body: { ok: false, message: `Only a failed job can be run again; this one is ${status}.`, status: 409 } });
    }
    expect(await post({ intent: "retry-job", jobId: "no-such-job" }, ops.cookie)).toMatchObject({ status: 404, body: { ok: false } });
    expect(queue.sent).toHaveLength(1);
    expect(await db.select().from(adminActions)).toHaveLength(1);
  });

  it.skipIf(skip)("a retry the queue refuses leaves the job failed as it was, unlogged; only the admin may retry", async () => {
    const { db, signUp, post, queue } = await setup();
    const ops = await signUp(ADMIN_EMAIL, true);
    const member = await signUp("member@example.com", true);
    const failed = {
      id: "one-1",
      userId: member.id,
      kind: "scheduled" as const,
      format: "mp3-128",
      items: [{ url: "https://www.youtube.com/watch?v=aaaaaaaaaaa", title: null, status: "failed" as const, bytes: null, error: "The video is private." }],
      status: "failed" as const,
      runAt: new Date("2026-11-01T00:00:00Z"),
      queueJobId: "old-queue-job",
      error: "The video is private.",
      startedAt: new Date("2026-11-01T00:00:01Z"),
      finishedAt: new Date("2026-11-01T00:00:09Z"),
    };
    await db.insert(downloadJobs).values(failed);
    expect((await post({ intent: "retry-job", jobId: "one-1" })).status).toBe(404);
    expect((await post({ intent: "retry-job", jobId: "one-1" }, member.cookie)).status).toBe(404);

    queue.refuse = true;
    await expect(post({ intent: "retry-job", jobId: "one-1" }, ops.cookie)).rejects.toThrow("queue down");
    const [row] = await db.select().from(downloadJobs).where(eq(downloadJobs.id, "one-1"));
    expect(row).toMatchObject(failed);
    expect(queue.cancelled).toEqual([]);
    expect(await db.select().from(adminActions)).toHaveLength(0);
  });
});
