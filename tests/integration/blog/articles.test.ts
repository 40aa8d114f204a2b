import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestPglite, type DatabaseHandle } from "#db/client.ts";
import { blogGeneratedArticles } from "#db/schema/blog.ts";
import {
  getArticleBySlug,
  FEATURED_REUSE_MS,
  getFeaturedArticles,
  getRelatedArticles,
  listAllArticles,
  listArticles,
  listBlogSitemapEntries,
  searchArticles,
  setArticleRemoved,
} from "#app/modules/blog/articles.server.ts";
import { ensureGeneratedArticles, ensureGeneratedArticlesToday } from "#app/modules/blog/generated-store.server.ts";
import { EDITORIAL_BYLINE, generateBatch } from "#app/modules/blog/generator/generate-batch.ts";
import { repairGeneratedArticles } from "#app/modules/blog/repair-generated-articles.server.ts";
import { fixtureArticles } from "#app/modules/blog/test-fixtures/load-fixtures.ts";

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await openTestPglite();
});
afterEach(async () => {
  await handle.close();
});

const day = (d: string) => new Date(`${d}T10:00:00Z`);
const local = fixtureArticles();
const opts = { local, now: day("2026-11-21") };

describe("generated article store", () => {
  it("generates 40 articles on first start, 30 long-form, and nothing more the same day", async () => {
    const first = await ensureGeneratedArticles(handle.db, { now: day("2026-11-21") });
    expect(first.created).toBe(40);
    const again = await ensureGeneratedArticles(handle.db, { now: day("2026-11-21") });
    expect(again.created).toBe(0);
    const rows = await handle.db.select().from(blogGeneratedArticles);
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.longForm)).toHaveLength(30);
  });

  it("adds one batch of 15 (5 long-form) dated today after days away, never batches dated in the past", async () => {
    await ensureGeneratedArticles(handle.db, { now: day("2026-11-21") });
    const later = await ensureGeneratedArticles(handle.db, { now: day("2026-11-24") });
    expect(later.created).toBe(15);
    expect(later.days).toEqual([{ day: "2026-11-24", kind: "daily" }]);
    const rows = await handle.db.select().from(blogGeneratedArticles);
    expect(rows).toHaveLength(55);
    expect(rows.filter((r) => r.longForm)).toHaveLength(30 + 5);
    expect(rows.filter((r) => r.batchDay === "2026-11-24").every((r) => r.publishedAt.toISOString().startsWith("2026-11-24"))).toBe(true);
  });

  it("rewrites articles the earlier generator stored: no repeated sentence, the day they appeared, the editorial byline", async () => {
    const [made] = generateBatch("2026-10-01", "daily");
    const repeated = "<p>Use Wi-Fi for big files. Use Wi-Fi for big files. Use Wi-Fi for big files.</p>";
    await handle.db.insert(blogGeneratedArticles).values({ ...made!, author: "Maya Thornton", contentHtml: repeated, publishedAt: day("2026-09-12"), modifiedAt: day("2026-09-12"), createdAt: day("2026-10-01") });
    await ensureGeneratedArticles(handle.db, { now: day("2026-10-01") });
    const [row] = await handle.db.select().from(blogGeneratedArticles);
    expect(row!.slug).toBe(made!.slug);
    expect(row!.title).toBe(made!.title);
    expect(row!.author).toBe(EDITORIAL_BYLINE);
    expect(row!.publishedAt.toISOString().slice(0, 10)).toBe("2026-10-01");
    expect(row!.contentHtml).not.toContain(repeated);
    const sentences = row!.contentHtml.replace(/<[^>]+>/g, " ").split(/(?<=[.!?])\s+/).map((x) => x.trim()).filter(Boolean);
    expect(new Set(sentences).size).toBe(sentences.length);
    // a second start leaves it as it is
    const again = await repairGeneratedArticles(handle.db, { now: day("2026-10-02") });
    expect(again).toBe(0);
  });

  it("stores exactly what the generator makes for that date, so slugs are stable", async () => {
    await ensureGeneratedArticles(handle.db, { now: day("2026-11-21") });
    const rows = await handle.db.select({ slug: blogGeneratedArticles.slug }).from(blogGeneratedArticles);
    expect(rows.map((r) => r.slug).sort()).toEqual(generateBatch("2026-11-21", "initial").map((a) => a.slug).sort());
  });

  it("never repeats a title across the stored days, even after a year's titles are used up", async () => {
    await ensureGeneratedArticles(handle.db, { now: day("2026-11-01") });
    // 39 more days: 625 articles, more than the ~520 titles a year's templates and topics make
    for (let d = 2; d <= 40; d++) await ensureGeneratedArticles(handle.db, { now: new Date(Date.parse("2026-11-01T10:00:00Z") + (d - 1) * 86_400_000) });
    const rows = await handle.db.select({ title: blogGeneratedArticles.title }).from(blogGeneratedArticles);
    expect(rows).toHaveLength(40 + 39 * 15);
    expect(new Set(rows.map((r) => r.title.toLowerCase())).size).toBe(rows.length);
    expect(rows.some((r) => r.title.endsWith(" (December 2026 Update)"))).toBe(true);
    expect(rows.some((r) => / Has Changed in 2026| Questions Answered/.test(r.title))).toBe(true);
    expect(rows.filter((r) => /(Playlists|Subtitles|Thumbnails|Transcripts|Video Formats|Podcasts) (Has|Matters|Works|Mistakes|Glossary|Questions)\b/.test(r.title))).toEqual([]);
  });

  it("is safe when two catch-ups run at once", async () => {
    await Promise.all([ensureGeneratedArticles(handle.db, { now: day("2026-11-21") }), ensureGeneratedArticles(handle.db, { now: day("2026-11-21") })]);
    expect(await handle.db.$count(blogGeneratedArticles)).toBe(40);
  });

  it("lazily ensures today's articles on the first request", async () => {
    await ensureGeneratedArticlesToday(handle.db, { now: day("2026-11-21") });
    await ensureGeneratedArticlesToday(handle.db, { now: day("2026-11-22") });
    expect(await handle.db.$count(blogGeneratedArticles)).toBe(55);
  });
});

describe("blog list", () => {
  it("shows 6 first, newest first, with the total and tag chips", async () => {
    const res = await listArticles(handle.db, {}, opts);
    expect(res.articles).toHaveLength(6);
    expect(res.total).toBe(42);
    const times = res.articles.map((a) => a.publishedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(res.tags.find((t) => t.tag === "Study")?.count).toBe(1);
    expect(res.updatedDay).toBe("2026-11-21");
    const more = await listArticles(handle.db, { limit: 9 }, opts);
    expect(more.articles.slice(0, 6)).toEqual(res.articles);
    expect(more.articles).toHaveLength(9);
  });

  it("filters by tag (case-insensitive) and by search words, combined", async () => {
    const mp3 = await listArticles(handle.db, { tag: "mp3", limit: 100 }, opts);
    expect(mp3.total).toBeGreaterThan(0);
    for (const a of mp3.articles) expect(a.tags.map((t) => t.toLowerCase())).toContain("mp3");
    expect(mp3.articles.some((a) => a.slug === "podcast-audio-basics")).toBe(true);

    const combined = await listArticles(handle.db, { tag: "MP3", q: "podcast primer", limit: 100 }, opts);
    expect(combined.articles.map((a) => a.slug)).toEqual(["podcast-audio-basics"]);
    expect(combined.total).toBe(1);

    const none = await listArticles(handle.db, { tag: "Study", q: "podcast" }, opts);
    expect(none.articles).toEqual([]);
    expect(none.total).toBe(0);
  });

  it("treats % and _ in a search as plain characters", async () => {
    const res = await listArticles(handle.db, { q: "%" }, opts);
    expect(res.total).toBe(0);
  });
});

describe("article lookup", () => {
  it("finds local and generated articles by slug; unknown slugs say so", async () => {
    const localHit = await getArticleBySlug(handle.db, "podcast-audio-basics", opts);
    expect(localHit.status).toBe("found");
    const [gen] = (await listArticles(handle.db, { q: "", limit: 1 }, opts)).articles;
    const genHit = await getArticleBySlug(handle.db, gen!.slug, opts);
    expect(genHit.status === "found" && genHit.article.contentHtml.length).toBeGreaterThan(100);
    expect((await getArticleBySlug(handle.db, "no-such-article", opts)).status).toBe("unknown");
  });

  it("a removed article is 'removed' and disappears from lists, feeds and search", async () => {
    await setArticleRemoved(handle.db, "podcast-audio-basics", true, "test");
    expect((await getArticleBySlug(handle.db, "podcast-audio-basics", opts)).status).toBe("removed");
    expect((await listArticles(handle.db, { q: "podcast primer" }, opts)).total).toBe(0);
    expect((await searchArticles(handle.db, "podcast primer", opts)).length).toBe(0);
    expect((await listBlogSitemapEntries(handle.db, opts)).some((e) => e.path.endsWith("/podcast-audio-basics"))).toBe(false);
    const [gen] = (await listArticles(handle.db, {}, opts)).articles;
    await setArticleRemoved(handle.db, gen!.slug, true);
    expect((await getArticleBySlug(handle.db, gen!.slug, opts)).status).toBe("removed");
    expect((await listArticles(handle.db, {}, opts)).total).toBe(40);
    await setArticleRemoved(handle.db, "podcast-audio-basics", false);
    expect((await getArticleBySlug(handle.db, "podcast-audio-basics", opts)).status).toBe("found");
  });

  it("related: sharing a tag first, then others, 3 at most, the same on every call", async () => {
    const hit = await getArticleBySlug(handle.db, "saving-lectures-offline", opts);
    if (hit.status !== "found") throw new Error("fixture missing");
    const related = await getRelatedArticles(handle.db, hit.article, 3, opts);
    expect(related).toHaveLength(3);
    expect(related.some((r) => r.slug === hit.article.slug)).toBe(false);
    expect(related.every((r) => r.tags.some((t) => hit.article.tags.map((x) => x.toLowerCase()).includes(t.toLowerCase())))).toBe(true);
    expect(await getRelatedArticles(handle.db, hit.article, 3, opts)).toEqual(related);
  });

  it("feeds, sitemap, search and the home page's featured articles", async () => {
    const all = await listAllArticles(handle.db, opts);
    expect(all).toHaveLength(42);
    const sitemap = await listBlogSitemapEntries(handle.db, opts);
    expect(sitemap).toHaveLength(43);
    expect(sitemap[0]).toMatchObject({ path: "/blog", changefreq: "daily" });
    expect(sitemap.find((e) => e.path === "/blog/saving-lectures-offline")?.lastmod).toBe("2026-02-03T00:00:00.000Z");
    const hits = await searchArticles(handle.db, "lectures", opts);
    expect(hits[0]).toMatchObject({ path: "/blog/saving-lectures-offline", title: "Saving Lectures for Offline Study" });
    expect(await searchArticles(handle.db, "   ", opts)).toEqual([]);
    const featured = await getFeaturedArticles(handle.db, 3, opts);
    expect(featured).toHaveLength(3);
    expect(featured).toEqual(all.slice(0, 3).map(({ modifiedDate: _m, ...s }) => s));
  });
});

describe("the home page's featured articles", () => {
  it("are one answer shared for a few seconds, then read again (a takedown shows within that time)", async () => {
    const realNow = Date.now;
    let now = realNow();
    Date.now = () => now;
    try {
      const first = await getFeaturedArticles(handle.db, 3);
      expect(first).toHaveLength(3);
      await setArticleRemoved(handle.db, first[0]!.slug, true, "test takedown");
      now += FEATURED_REUSE_MS - 1;
      expect(await getFeaturedArticles(handle.db, 3)).toEqual(first);
      now += 1;
      const later = await getFeaturedArticles(handle.db, 3);
      expect(later.map((a) => a.slug)).not.toContain(first[0]!.slug);
      expect(later).toHaveLength(3);
    } finally {
      Date.now = realNow;
    }
  });
});
