import { and, count, desc, eq, gt, inArray, isNull, max, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "#db/client.ts";
import { adminActions, blogCommentReports, blogComments, contactMessages, downloadJobs, platformRequests, subscriptions, users } from "#db/schema/index.ts";
import { isPaidPlanId, PLAN_IDS, type PlanId } from "#common/plans.ts";
import { ENTITLED_STATUSES } from "#app/modules/billing/user-plan.server.ts";
import { COUNTS_WINDOW_HOURS, readCanaryStandings, readHealthTable, type ClientHealthRow } from "#app/modules/platform-health/health-counts.server.ts";
import { failingClients } from "#app/modules/platform-health/client-order.server.ts";

/** How many rows each list shows: the page is a work list, not an archive. */
export const ADMIN_LIST_LIMIT = 50;

export interface AdminContactMessage {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  plan: string | null;
  priority: boolean;
  createdAt: string;
  handledAt: string | null;
  handledBy: string | null;
}

export interface AdminComment {
  id: string;
  articleSlug: string;
  name: string;
  content: string;
  status: string;
  createdAt: string;
  reports: number;
  reasons: string[];
}

export interface AdminView {
  messages: AdminContactMessage[];
  comments: AdminComment[];
  platforms: Array<{ platform: string; requests: number; latest: string }>;
  users: { total: number; plans: Array<{ plan: PlanId; users: number }> };
  jobs: {
    counts: Array<{ status: string; jobs: number }>;
    running: Array<{ id: string; kind: string; owner: string; startedAt: string | null }>;
    failed: Array<{ id: string; kind: string; owner: string; error: string; finishedAt: string | null }>;
  };
  actions: Array<{ id: string; admin: string; action: string; target: string; detail: string; createdAt: string }>;
  /** each platform's clients per egress over the last `windowHours` (issue 32 §5), and the YouTube clients asked last now */
  health: { windowHours: number; rows: ClientHealthRow[]; askedLast: string[] };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Everything /admin shows, each list bounded. */
export async function adminViewOf(db: Database, now: Date = new Date()): Promise<AdminView> {
  const [messages, comments, platforms, users_, jobs, actions, healthRows, standings] = await Promise.all([
    listContactMessages(db),
    listComments(db),
    platformCounts(db),
    userPlanCounts(db, now),
    jobCounts(db),
    recentActions(db),
    readHealthTable(db, now.getTime()),
    readCanaryStandings(db, now.getTime()),
  ]);
  const health = { windowHours: COUNTS_WINDOW_HOURS, rows: healthRows, askedLast: [...failingClients(standings)].sort() };
  return { messages, comments, platforms, users: users_, jobs, actions, health };
}

/** Open messages first (priority ones, then newest), handled ones after them. */
export async function listContactMessages(db: Database): Promise<AdminContactMessage[]> {
  const handler = alias(users, "handler");
  const rows = await db
    .select({ m: contactMessages, handlerEmail: handler.email })
    .from(contactMessages)
    .leftJoin(handler, eq(handler.id, contactMessages.handledBy))
    .orderBy(sql`${contactMessages.handledAt} is not null`, desc(contactMessages.priority), desc(contactMessages.createdAt), desc(contactMessages.handledAt))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map(({ m, handlerEmail }) => ({
    id: m.id,
    name: m.name,
    email: m.email,
    subject: m.subject,
    message: m.message,
    plan: m.plan,
    priority: m.priority,
    createdAt: m.createdAt.toISOString(),
    handledAt: iso(m.handledAt),
    handledBy: m.handledAt ? (handlerEmail ?? "a deleted account") : null,
  }));
}

/** Reported comments first (most reports first), then the newest; hidden ones stay listed so they can be deleted. */
export async function listComments(db: Database): Promise<AdminComment[]> {
  const reports = db
    .select({
      commentId: blogCommentReports.commentId,
      reports: count().as("reports"),
      reasons: sql<string[]>`array_agg(${blogCommentReports.reason})`.as("reasons"),
    })
    .from(blogCommentReports)
    .groupBy(blogCommentReports.commentId)
    .as("r");
  const rows = await db
    .select({ c: blogComments, reports: reports.reports, reasons: reports.reasons })
    .from(blogComments)
    .leftJoin(reports, eq(reports.commentId, blogComments.id))
    .orderBy(sql`coalesce(${reports.reports}, 0) desc`, desc(blogComments.createdAt))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map(({ c, reports: n, reasons }) => ({
    id: c.id,
    articleSlug: c.articleSlug,
    name: c.name,
    content: c.content,
    status: c.status,
    createdAt: c.createdAt.toISOString(),
    reports: Number(n ?? 0),
    reasons: (reasons ?? []).filter((r) => r.trim() !== ""),
  }));
}

/** Requests per platform name, "TikTok" and "tiktok " counted as one. */
export async function platformCounts(db: Database): Promise<AdminView["platforms"]> {
  const name = sql<string>`lower(trim(${platformRequests.platformName}))`;
  const rows = await db
    .select({ platform: name, requests: count(), latest: max(platformRequests.createdAt) })
    .from(platformRequests)
    .groupBy(name)
    .orderBy(desc(count()), desc(max(platformRequests.createdAt)))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map((r) => ({ platform: r.platform, requests: Number(r.requests), latest: new Date(r.latest ?? 0).toISOString() }));
}

/**
 * Accounts and the plan each holds now, decided as getUserPlan does: the best entitled
 * subscription whose period has not ended; everyone else is on Free.
 */
export async function userPlanCounts(db: Database, now: Date): Promise<AdminView["users"]> {
  const [total, subs] = await Promise.all([
    db.$count(users),
    db
      .select({ userId: subscriptions.userId, plan: subscriptions.plan })
      .from(subscriptions)
      .where(and(inArray(subscriptions.status, [...ENTITLED_STATUSES]), or(isNull(subscriptions.currentPeriodEnd), gt(subscriptions.currentPeriodEnd, now)))),
  ]);
  const rank = (plan: PlanId) => PLAN_IDS.indexOf(plan);
  const best = new Map<string, PlanId>();
  for (const s of subs) {
    if (!isPaidPlanId(s.plan)) continue;
    const held = best.get(s.userId);
    if (!held || rank(s.plan) > rank(held)) best.set(s.userId, s.plan);
  }
  const counts = new Map<PlanId, number>(PLAN_IDS.map((p) => [p, 0]));
  for (const plan of best.values()) counts.set(plan, (counts.get(plan) ?? 0) + 1);
  counts.set("free", Math.max(0, total - best.size));
  return { total, plans: PLAN_IDS.map((plan) => ({ plan, users: counts.get(plan) ?? 0 })) };
}

/** download_jobs by status, the running ones, and the newest failed ones with their error (each can be retried). */
export async function jobCounts(db: Database): Promise<AdminView["jobs"]> {
  const listed = { id: downloadJobs.id, kind: downloadJobs.kind, owner: users.email };
  const [counts, running, failed] = await Promise.all([
    db.select({ status: downloadJobs.status, jobs: count() }).from(downloadJobs).groupBy(downloadJobs.status).orderBy(downloadJobs.status),
    db
      .select({ ...listed, startedAt: downloadJobs.startedAt })
      .from(downloadJobs)
      .innerJoin(users, eq(users.id, downloadJobs.userId))
      .where(eq(downloadJobs.status, "running"))
      .orderBy(desc(downloadJobs.startedAt))
      .limit(20),
    db
      .select({ ...listed, error: downloadJobs.error, finishedAt: downloadJobs.finishedAt })
      .from(downloadJobs)
      .innerJoin(users, eq(users.id, downloadJobs.userId))
      .where(eq(downloadJobs.status, "failed"))
      .orderBy(desc(downloadJobs.finishedAt), desc(downloadJobs.createdAt))
      .limit(20),
  ]);
  return {
    counts: counts.map((c) => ({ status: c.status, jobs: Number(c.jobs) })),
    running: running.map((r) => ({ id: r.id, kind: r.kind, owner: r.owner, startedAt: iso(r.startedAt) })),
    failed: failed.map((f) => ({ id: f.id, kind: f.kind, owner: f.owner, error: f.error ?? "", finishedAt: iso(f.finishedAt) })),
  };
}

/** The last 50 admin actions, newest first. */
export async function recentActions(db: Database): Promise<AdminView["actions"]> {
  const rows = await db.select().from(adminActions).orderBy(desc(adminActions.createdAt)).limit(ADMIN_LIST_LIMIT);
  return rows.map((r) => ({ id: r.id, admin: r.adminEmail, action: r.action, target: r.target, detail: r.detail, createdAt: r.createdAt.toISOString() }));
}
