import { desc, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { blogGeneratedArticles } from "#db/schema/blog.ts";
import { dayOf, generateBatch, IMAGE_SPACING, type BatchKind } from "./generator/generate-batch.ts";
import { repairGeneratedArticles } from "./repair-generated-articles.server.ts";

export interface EnsureResult {
  /** articles inserted by this call */
  created: number;
  /** the newest batch day in the store after the call */
  latestDay: string;
  /** days whose batch this call generated */
  days: { day: string; kind: BatchKind }[];
}

/**
 * Bring the generated-article store up to the given day (UTC): 40 initial articles on the very
 * first run, then 15 when the newest stored batch is from an earlier day (spec §9: one batch per
 * new day; days the site was down get none, so no article is dated before it appeared).
 * Idempotent and safe to run concurrently: a day's articles are fixed by the date and the titles
 * stored before it (no title repeats one already stored), and inserts skip rows that already exist.
 */
export async function ensureGeneratedArticles(db: Database, opts: { now?: Date; logger?: Logger } = {}): Promise<EnsureResult> {
  const today = dayOf(opts.now ?? new Date());
  await repairGeneratedArticles(db, opts);
  const [row] = await db.select({ latest: sql<string | null>`max(${blogGeneratedArticles.batchDay})` }).from(blogGeneratedArticles);
  const latest = row?.latest ?? null;
  const plan: { day: string; kind: BatchKind }[] = [];
  if (!latest) plan.push({ day: today, kind: "initial" });
  else if (latest < today) plan.push({ day: today, kind: "daily" });
  let created = 0;
  for (const step of plan) {
    const taken = await db.select({ title: blogGeneratedArticles.title }).from(blogGeneratedArticles);
    // the newest images, so the new batch's first articles differ from the last ones stored
    const newest = await db.select({ image: blogGeneratedArticles.image }).from(blogGeneratedArticles).orderBy(desc(blogGeneratedArticles.publishedAt)).limit(IMAGE_SPACING);
    const rows = generateBatch(step.day, step.kind, { takenTitles: taken.map((t) => t.title), recentImages: newest.map((n) => n.image).reverse() });
    const inserted = await db.insert(blogGeneratedArticles).values(rows).onConflictDoNothing().returning({ id: blogGeneratedArticles.id });
    created += inserted.length;
  }
  if (created > 0) opts.logger?.info({ created, days: plan.map((p) => p.day) }, "blog: generated new articles");
  return { created, latestDay: plan.at(-1)?.day ?? latest ?? today, days: plan };
}

/** Per database handle: the day already ensured, so a request pays for the check once a day. */
const ensured = new WeakMap<object, { day: string; pending: Promise<unknown> }>();

/**
 * Lazy catch-up for requests: a fresh start always has its 40 articles before the first blog
 * page renders, even if the background freshness timer has not run yet.
 */
export async function ensureGeneratedArticlesToday(db: Database, opts: { now?: Date; logger?: Logger } = {}): Promise<void> {
  const day = dayOf(opts.now ?? new Date());
  const entry = ensured.get(db);
  if (entry && entry.day === day) {
    await entry.pending;
    return;
  }
  const pending = ensureGeneratedArticles(db, opts).catch((err: unknown) => {
    ensured.delete(db);
    throw err;
  });
  ensured.set(db, { day, pending });
  await pending;
}
