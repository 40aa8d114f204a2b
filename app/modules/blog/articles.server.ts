import { and, desc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { blogArticleRemovals, blogGeneratedArticles } from "#db/schema/blog.ts";
import { controlsToSpaces, stripControls } from "./clean-text.ts";
import { ensureGeneratedArticlesToday } from "./generated-store.server.ts";
import { getLocalArticles } from "./local-articles.server.ts";
import { isGeneratedPremium } from "./premium.ts";
import { articlePath, formatLongDate, readTimeLabel, type Article, type ArticleSummary } from "./types.ts";

import { FIRST_SHOWN, MAX_SHOWN, RELATED_COUNT } from "./list-constants.ts";

export { FIRST_SHOWN, LOAD_MORE_STEP, MAX_SHOWN, RELATED_COUNT } from "./list-constants.ts";

export interface BlogSourceOptions {
  /** local articles (tests pass fixtures); default: content/blog */
  local?: Article[];
  /** the clock for the lazy generation catch-up */
  now?: Date;
}

type GeneratedRow = typeof blogGeneratedArticles.$inferSelect;
const { contentHtml: _contentHtml, ...summaryColumns } = getTableColumns(blogGeneratedArticles);
type GeneratedSummaryRow = Omit<GeneratedRow, "contentHtml">;

function toSummary(row: GeneratedSummaryRow): ArticleSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    image: row.image,
    author: row.author,
    publishedAt: row.publishedAt.toISOString(),
    date: formatLongDate(row.publishedAt),
    readTime: readTimeLabel(row.readMinutes),
    tags: row.tags,
    source: "generated",
    premium: isGeneratedPremium(row.slug, row.longForm),
  };
}

function toArticle(row: GeneratedRow): Article {
  return {
    ...toSummary(row),
    metaDescription: row.metaDescription,
    modifiedDate: row.modifiedAt.toISOString(),
    keywords: row.keywords,
    canonical: articlePath(row.slug),
    contentHtml: row.contentHtml,
    category: row.category,
    commentCount: row.commentCount,
  };
}

export function summaryOf(a: Article): ArticleSummary {
  return {
    id: a.id,
    slug: a.slug,
    title: a.title,
    excerpt: a.excerpt,
    image: a.image,
    author: a.author,
    publishedAt: a.publishedAt,
    date: a.date,
    readTime: a.readTime,
    tags: a.tags,
    source: a.source,
    premium: a.premium,
  };
}

/** Newest first; ties broken by slug so the order never changes between requests. */
export function compareNewestFirst(a: ArticleSummary, b: ArticleSummary): number {
  if (a.publishedAt !== b.publishedAt) return a.publishedAt < b.publishedAt ? 1 : -1;
  return a.slug.localeCompare(b.slug);
}

async function prepare(db: Database, opts: BlogSourceOptions) {
  await ensureGeneratedArticlesToday(db, { now: opts.now });
  const removed = new Set((await db.select({ slug: blogArticleRemovals.slug }).from(blogArticleRemovals)).map((r) => r.slug));
  const local = (opts.local ?? getLocalArticles()).filter((a) => !removed.has(a.slug));
  return { local, removed };
}

const notRemoved = sql`not exists (select 1 from ${blogArticleRemovals} r where r.slug = ${blogGeneratedArticles.slug})`;

/** Search words: every word must appear in the title, excerpt, author or a tag. */
export function searchWords(q: string | null | undefined): string[] {
  // control characters (NUL would fail the query) separate words like spaces do
  return controlsToSpaces(q ?? "")
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.trim())
    .filter(Boolean)
    .slice(0, 8);
}

function likePattern(word: string) {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function generatedFilters(filter: { tag?: string | null; words: string[] }): SQL[] {
  const where: SQL[] = [notRemoved];
  if (filter.tag) where.push(sql`exists (select 1 from unnest(${blogGeneratedArticles.tags}) t where lower(t) = lower(${filter.tag}))`);
  for (const w of filter.words) {
    const p = likePattern(w);
    where.push(
      sql`(${blogGeneratedArticles.title} ilike ${p} or ${blogGeneratedArticles.excerpt} ilike ${p} or ${blogGeneratedArticles.author} ilike ${p} or array_to_string(${blogGeneratedArticles.tags}, ' ') ilike ${p})`,
    );
  }
  return where;
}

function localMatches(a: ArticleSummary, filter: { tag?: string | null; words: string[] }): boolean {
  if (filter.tag && !a.tags.some((t) => t.toLowerCase() === filter.tag!.toLowerCase())) return false;
  const hay = [a.title, a.excerpt, a.author, a.tags.join(" ")].join(" ").toLowerCase();
  return filter.words.every((w) => hay.includes(w));
}

/** A tag filter as typed in the URL: control characters dropped, blank means none. */
export function cleanTag(tag: string | null | undefined): string | null {
  return stripControls(tag ?? "").trim().slice(0, 60) || null;
}

export interface ListArticlesInput {
  tag?: string | null;
  q?: string | null;
  /** how many to return (featured + grid) */
  limit?: number;
}

export interface ListArticlesResult {
  articles: ArticleSummary[];
  total: number;
  /** tag chips: every tag in use, most used first */
  tags: { tag: string; count: number }[];
  /** the day of the newest generated batch (for "updated on …") */
  updatedDay: string | null;
  /** the newest publication time of any article (for the "New Articles Available" toast) */
  latestPublishedAt: string | null;
}

/** The /blog list: search and tag filters combined, newest first, the first `limit` items. */
export async function listArticles(db: Database, input: ListArticlesInput = {}, opts: BlogSourceOptions = {}): Promise<ListArticlesResult> {
  const { local } = await prepare(db, opts);
  const limit = Math.min(Math.max(input.limit ?? FIRST_SHOWN, 1), MAX_SHOWN);
  const filter = { tag: cleanTag(input.tag), words: searchWords(input.q) };
  const where = and(...generatedFilters(filter));

  const [generated, [countRow], tagRows, [meta]] = await Promise.all([
    db.select(summaryColumns).from(blogGeneratedArticles).where(where).orderBy(desc(blogGeneratedArticles.publishedAt), blogGeneratedArticles.slug).limit(limit),
    db.select({ n: sql<number>`count(*)::int` }).from(blogGeneratedArticles).where(where),
    db.execute<{ tag: string; n: number }>(
      sql`select t as tag, count(*)::int as n from ${blogGeneratedArticles}, unnest(${blogGeneratedArticles.tags}) t where ${notRemoved} group by t`,
    ),
    db
      .select({ day: sql<string | null>`max(${blogGeneratedArticles.batchDay})`, latest: sql<string | null>`max(${blogGeneratedArticles.publishedAt})` })
      .from(blogGeneratedArticles)
      .where(notRemoved),
  ]);

  const localMatching = local.map(summaryOf).filter((a) => localMatches(a, filter));
  const articles = [...generated.map(toSummary), ...localMatching].sort(compareNewestFirst).slice(0, limit);

  const tagCounts = new Map<string, number>();
  for (const r of rowsOf<{ tag: string; n: number }>(tagRows)) tagCounts.set(r.tag, (tagCounts.get(r.tag) ?? 0) + Number(r.n));
  for (const a of local) for (const t of a.tags) tagCounts.set(t, (tagCounts.get(t) ?? 0) + 1);
  const tags = [...tagCounts].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));

  const latestCandidates = [meta?.latest ? new Date(meta.latest).toISOString() : null, ...local.map((a) => a.publishedAt)].filter((v): v is string => Boolean(v));
  return {
    articles,
    total: (countRow?.n ?? 0) + localMatching.length,
    tags,
    updatedDay: meta?.day ?? null,
    latestPublishedAt: latestCandidates.sort().at(-1) ?? null,
  };
}

/** The written (local) articles that are not taken down, newest first: the guides /blog always lists. */
export async function listLocalGuides(db: Database, opts: BlogSourceOptions = {}): Promise<ArticleSummary[]> {
  const removed = new Set((await db.select({ slug: blogArticleRemovals.slug }).from(blogArticleRemovals)).map((r) => r.slug));
  return (opts.local ?? getLocalArticles())
    .filter((a) => !removed.has(a.slug))
    .map(summaryOf)
    .sort(compareNewestFirst);
}

/** node-postgres returns { rows }, PGlite returns { rows } too; typed loosely by drizzle. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

export type ArticleLookup = { status: "found"; article: Article } | { status: "removed" } | { status: "unknown" };

/** Every slug, local or generated, is lowercase words joined by hyphens. */
const SLUG_SHAPE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG_LENGTH = 200;

/** Find one article by slug: local first, then generated; removed ones say so. */
export async function getArticleBySlug(db: Database, slug: string, opts: BlogSourceOptions = {}): Promise<ArticleLookup> {
  // anything else can name no article (and NUL would fail the query): unknown, without asking the database
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_SHAPE.test(slug)) return { status: "unknown" };
  await ensureGeneratedArticlesToday(db, { now: opts.now });
  const [removal] = await db.select().from(blogArticleRemovals).where(eq(blogArticleRemovals.slug, slug)).limit(1);
  const local = (opts.local ?? getLocalArticles()).find((a) => a.slug === slug);
  if (local) return removal ? { status: "removed" } : { status: "found", article: local };
  const [row] = await db.select().from(blogGeneratedArticles).where(eq(blogGeneratedArticles.slug, slug)).limit(1);
  if (!row) return { status: "unknown" };
  return removal ? { status: "removed" } : { status: "found", article: toArticle(row) };
}

/**
 * Spec: related articles are those sharing at least one tag first, then the others, up to `count`.
 * Deterministic instead of shuffled, so a page (and its previous/next links) never changes
 * between requests: more shared tags first, then newest, then slug.
 */
export function rankRelated(article: Pick<ArticleSummary, "slug" | "tags">, candidates: ArticleSummary[], count = RELATED_COUNT): ArticleSummary[] {
  const mine = new Set(article.tags.map((t) => t.toLowerCase()));
  const scored = candidates
    .filter((c) => c.slug !== article.slug)
    .map((c) => ({ c, shared: c.tags.filter((t) => mine.has(t.toLowerCase())).length }));
  const sharing = scored.filter((s) => s.shared > 0).sort((a, b) => b.shared - a.shared || compareNewestFirst(a.c, b.c));
  const others = scored.filter((s) => s.shared === 0).sort((a, b) => compareNewestFirst(a.c, b.c));
  return [...sharing, ...others].slice(0, count).map((s) => s.c);
}

/** How many generated candidates to consider for "related": plenty for a stable top 3. */
const RELATED_POOL = 200;

export async function getRelatedArticles(db: Database, article: Article, count = RELATED_COUNT, opts: BlogSourceOptions = {}): Promise<ArticleSummary[]> {
  const { local } = await prepare(db, opts);
  const lowerTags = article.tags.map((t) => t.toLowerCase());
  const tagList = sql.join(lowerTags.map((t) => sql`${t}`), sql`, `);
  const [sharing, newest] = await Promise.all([
    lowerTags.length
      ? db
          .select(summaryColumns)
          .from(blogGeneratedArticles)
          .where(and(notRemoved, sql`exists (select 1 from unnest(${blogGeneratedArticles.tags}) t where lower(t) in (${tagList}))`))
          .orderBy(desc(blogGeneratedArticles.publishedAt), blogGeneratedArticles.slug)
          .limit(RELATED_POOL)
      : Promise.resolve([]),
    db.select(summaryColumns).from(blogGeneratedArticles).where(notRemoved).orderBy(desc(blogGeneratedArticles.publishedAt), blogGeneratedArticles.slug).limit(count + 1),
  ]);
  const bySlug = new Map<string, ArticleSummary>();
  for (const r of [...sharing, ...newest]) bySlug.set(r.slug, toSummary(r));
  for (const a of local) bySlug.set(a.slug, summaryOf(a));
  return rankRelated(article, [...bySlug.values()], count);
}

/** Spec §2 "Home": three featured articles (the newest). */
/** How long the home page's featured list is reused: a takedown reaches it within this time. */
export const FEATURED_REUSE_MS = 10_000;
const featuredMemo = new WeakMap<Database, { count: number; at: number; articles: Promise<ArticleSummary[]> }>();

export async function getFeaturedArticles(db: Database, count = 3, opts: BlogSourceOptions = {}): Promise<ArticleSummary[]> {
  // the newest few only: none of the blog list's counts and tags, which cost most of its queries
  const load = async () => (await listAllArticles(db, { ...opts, limit: count })).map(({ modifiedDate: _, ...summary }) => summary);
  // every render of the home page (signed-in visitors' are never cached) shares one answer for a few seconds
  if (Object.keys(opts).length > 0) return load();
  const memo = featuredMemo.get(db);
  if (memo && memo.count === count && Date.now() - memo.at < FEATURED_REUSE_MS) return memo.articles;
  const articles = load();
  featuredMemo.set(db, { count, at: Date.now(), articles });
  articles.catch(() => featuredMemo.delete(db));
  return articles;
}

/** Every article, newest first, for the RSS feed and the sitemap. */
export async function listAllArticles(db: Database, opts: BlogSourceOptions & { limit?: number } = {}): Promise<(ArticleSummary & { modifiedDate: string })[]> {
  const { local } = await prepare(db, opts);
  let query = db
    .select(summaryColumns)
    .from(blogGeneratedArticles)
    .where(notRemoved)
    .orderBy(desc(blogGeneratedArticles.publishedAt), blogGeneratedArticles.slug)
    .$dynamic();
  if (opts.limit) query = query.limit(opts.limit);
  const generated = (await query).map((r) => ({ ...toSummary(r), modifiedDate: r.modifiedAt.toISOString() }));
  const all = [...generated, ...local.map((a) => ({ ...summaryOf(a), modifiedDate: a.modifiedDate }))].sort(compareNewestFirst);
  return opts.limit ? all.slice(0, opts.limit) : all;
}

export interface BlogSitemapEntry {
  /** site-relative path */
  path: string;
  /** ISO timestamp of the last change */
  lastmod: string;
  changefreq: "daily" | "weekly" | "monthly";
  priority: number;
}

/** The blog list and every article, for /sitemap.xml. */
export async function listBlogSitemapEntries(db: Database, opts: BlogSourceOptions = {}): Promise<BlogSitemapEntry[]> {
  const all = await listAllArticles(db, opts);
  const newest = all.reduce((max, a) => (a.modifiedDate > max ? a.modifiedDate : max), all[0]?.publishedAt ?? new Date(0).toISOString());
  const list: BlogSitemapEntry = { path: "/blog", lastmod: newest, changefreq: "daily", priority: 0.8 };
  return [list, ...all.map((a): BlogSitemapEntry => ({
    path: articlePath(a.slug),
    lastmod: a.modifiedDate,
    changefreq: a.source === "local" ? "monthly" : "weekly",
    priority: a.source === "local" ? 0.7 : 0.5,
  }))];
}

export interface ArticleSearchHit {
  path: string;
  title: string;
  description: string;
  date: string;
  image: string;
}

/** Articles for the site search (/search?q=): every word must match. */
export async function searchArticles(db: Database, q: string, opts: BlogSourceOptions & { limit?: number } = {}): Promise<ArticleSearchHit[]> {
  if (searchWords(q).length === 0) return [];
  const { articles } = await listArticles(db, { q, limit: opts.limit ?? 20 }, opts);
  return articles.map((a) => ({ path: articlePath(a.slug), title: a.title, description: a.excerpt, date: a.date, image: a.image }));
}

/** Take an article down (or bring it back): its page then answers "Article Not Found". */
export async function setArticleRemoved(db: Database, slug: string, removed: boolean, reason = ""): Promise<void> {
  if (removed) await db.insert(blogArticleRemovals).values({ slug, reason }).onConflictDoUpdate({ target: blogArticleRemovals.slug, set: { reason } });
  else await db.delete(blogArticleRemovals).where(eq(blogArticleRemovals.slug, slug));
}
