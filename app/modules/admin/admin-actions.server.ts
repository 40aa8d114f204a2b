import { and, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "#db/client.ts";
import { getArticleBySlug } from "#app/modules/blog/articles.server.ts";
import { articlePath } from "#app/modules/blog/types.ts";
import type { ScheduledJobs } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { adminActions, blogArticleRemovals, blogComments, contactMessages, downloadJobs, users } from "#db/schema/index.ts";

/** The operator doing something: their id and email go into the log. */
export interface AdminActor {
  id: string;
  email: string;
}

export type AdminAction = "contact.handled" | "comment.hide" | "comment.delete" | "article.remove" | "job.retry";

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * The one place every admin action is logged from: call it inside the action's transaction, or
 * once the action's outside effect (the job queue) has happened.
 */
export async function logAdminAction(tx: Database | Tx, actor: AdminActor, entry: { action: AdminAction; target: string; detail?: string }): Promise<void> {
  await tx.insert(adminActions).values({ adminUserId: actor.id, adminEmail: actor.email, action: entry.action, target: entry.target, detail: (entry.detail ?? "").slice(0, 200) });
}

/** `pages`: the public pages the action changed (their cached copies must go at once) */
export type AdminFormResult = { ok: true; message: string; pages?: string[] } | { ok: false; message: string; status: number };

const uuid = z.uuid();
const slugShape = z.string().regex(/^[a-z0-9][a-z0-9-]{0,199}$/);
const notFound = (what: string): AdminFormResult => ({ ok: false, message: `${what} was not found (it may have been dealt with already).`, status: 404 });

/** Mark an open contact message handled (by whom, when). */
export async function markMessageHandled(db: Database, actor: AdminActor, messageId: string, now: Date = new Date()): Promise<AdminFormResult> {
  if (!uuid.safeParse(messageId).success) return notFound("The message");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(contactMessages)
      .set({ handledAt: now, handledBy: actor.id })
      .where(and(eq(contactMessages.id, messageId), isNull(contactMessages.handledAt)))
      .returning({ id: contactMessages.id, email: contactMessages.email, subject: contactMessages.subject });
    if (!row) return notFound("The message");
    await logAdminAction(tx, actor, { action: "contact.handled", target: row.id, detail: `from ${row.email}${row.subject ? `: ${row.subject}` : ""}` });
    return { ok: true, message: "Message marked handled." };
  });
}

/** Hide a comment: it leaves the article (only "approved" comments are shown) but stays here. */
export async function hideComment(db: Database, actor: AdminActor, commentId: string): Promise<AdminFormResult> {
  if (!uuid.safeParse(commentId).success) return notFound("The comment");
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(blogComments)
      .set({ status: "hidden" })
      .where(and(eq(blogComments.id, commentId), ne(blogComments.status, "hidden")))
      .returning({ id: blogComments.id, name: blogComments.name, slug: blogComments.articleSlug });
    if (!row) return notFound("The comment");
    await logAdminAction(tx, actor, { action: "comment.hide", target: row.id, detail: `by ${row.name} on ${row.slug}` });
    return { ok: true, message: "Comment hidden.", pages: [articlePath(row.slug)] };
  });
}

/** Delete a comment for good, with its replies, likes and reports. */
export async function deleteComment(db: Database, actor: AdminActor, commentId: string): Promise<AdminFormResult> {
  if (!uuid.safeParse(commentId).success) return notFound("The comment");
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(blogComments).where(eq(blogComments.id, commentId)).returning({ id: blogComments.id, name: blogComments.name, slug: blogComments.articleSlug });
    if (!row) return notFound("The comment");
    await logAdminAction(tx, actor, { action: "comment.delete", target: row.id, detail: `by ${row.name} on ${row.slug}` });
    return { ok: true, message: "Comment deleted.", pages: [articlePath(row.slug)] };
  });
}

/** Take an article down: its page answers "Article Not Found" and it leaves the lists. */
export async function removeArticle(db: Database, actor: AdminActor, slug: string, reason: string): Promise<AdminFormResult> {
  const clean = slug.trim().toLowerCase();
  if (!slugShape.safeParse(clean).success) return { ok: false, message: "Enter the article's slug (the part after /blog/).", status: 400 };
  const found = await getArticleBySlug(db, clean);
  if (found.status === "unknown") return { ok: false, message: `There is no article ${clean}.`, status: 404 };
  const why = reason.trim().slice(0, 200);
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(blogArticleRemovals).values({ slug: clean, reason: why }).onConflictDoNothing().returning({ slug: blogArticleRemovals.slug });
    if (!inserted.length) return { ok: false, message: "That article is already removed.", status: 409 };
    await logAdminAction(tx, actor, { action: "article.remove", target: clean, detail: why });
    return { ok: true, message: `Article ${clean} removed.`, pages: [articlePath(clean), "/blog", "/"] };
  });
}

/**
 * Run a failed download job again from the start, now (issue 31 §5 "retry"). Logged once the
 * queue has the job: a retry the queue refused changed nothing, so it is not in the log.
 */
export async function retryJob(db: Database, jobs: ScheduledJobs, actor: AdminActor, jobId: string): Promise<AdminFormResult> {
  const [job] = await db
    .select({ id: downloadJobs.id, kind: downloadJobs.kind, error: downloadJobs.error, owner: users.email })
    .from(downloadJobs)
    .innerJoin(users, eq(users.id, downloadJobs.userId))
    .where(eq(downloadJobs.id, jobId))
    .limit(1);
  if (!job) return notFound("The job");
  const rerun = await jobs.rerun(job.id);
  if (!rerun.ok) return rerun.code === "job.not_found" ? notFound("The job") : { ok: false, message: rerun.message, status: 409 };
  await logAdminAction(db, actor, { action: "job.retry", target: job.id, detail: `${job.kind} for ${job.owner}, failed with: ${job.error ?? "no error recorded"}` });
  return { ok: true, message: `The ${job.kind} job for ${job.owner} will run again now.` };
}
