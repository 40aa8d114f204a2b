import { asc, eq, ne } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { blogGeneratedArticles } from "#db/schema/blog.ts";
import { articleBody, dayOf, EDITORIAL_BYLINE, IMAGE_SPACING, pickImage, publishedAtFor } from "./generator/generate-batch.ts";
import { TAG_PHRASES, TOPICS, type Tag } from "./generator/pools.ts";
import { createRng } from "./generator/prng.ts";

/**
 * Articles stored by the earlier generator repeated sentences (padding to a read time), were
 * dated up to a month before they appeared, were signed by invented people and often shared an
 * image with their neighbours. They are rewritten once, in place, with what the generator makes
 * now: the same slug, title and tags; a body that says each thing once and its true read time;
 * the editorial byline; the day the row was stored as its date; an image unlike its neighbours'.
 * A row already signed by the editorial team is never touched again.
 */
export async function repairGeneratedArticles(db: Database, opts: { now?: Date; logger?: Logger } = {}): Promise<number> {
  const stale = await db.select({ slug: blogGeneratedArticles.slug }).from(blogGeneratedArticles).where(ne(blogGeneratedArticles.author, EDITORIAL_BYLINE)).limit(1);
  if (stale.length === 0) return 0;
  const rows = await db
    .select({
      slug: blogGeneratedArticles.slug,
      seq: blogGeneratedArticles.seq,
      batchDay: blogGeneratedArticles.batchDay,
      author: blogGeneratedArticles.author,
      tags: blogGeneratedArticles.tags,
      longForm: blogGeneratedArticles.longForm,
      image: blogGeneratedArticles.image,
      createdAt: blogGeneratedArticles.createdAt,
    })
    .from(blogGeneratedArticles)
    .orderBy(asc(blogGeneratedArticles.createdAt), asc(blogGeneratedArticles.batchDay), asc(blogGeneratedArticles.seq));
  const modifiedAt = opts.now ?? new Date();
  const recent: string[] = [];
  let repaired = 0;
  for (const row of rows) {
    if (row.author === EDITORIAL_BYLINE) {
      recent.push(row.image);
      continue;
    }
    const topic = TOPICS.find((t) => t.tag === row.tags[0]) ?? TOPICS[0]!;
    const other = TAG_PHRASES[(row.tags[1] ?? "Guide") as Tag] ?? TAG_PHRASES.Guide;
    const rng = createRng(`vidfetch-blog-repair:${row.slug}`);
    const image = pickImage(rng, topic.tag, recent.slice(-IMAGE_SPACING));
    recent.push(image);
    // an earlier catch-up stored several past days at once: the day it was stored is when it appeared
    const appeared = [row.batchDay, dayOf(row.createdAt)].sort().at(-1)!;
    await db
      .update(blogGeneratedArticles)
      .set({ ...articleBody(rng, topic, other, row.longForm), image, author: EDITORIAL_BYLINE, publishedAt: publishedAtFor(appeared, row.seq), modifiedAt })
      .where(eq(blogGeneratedArticles.slug, row.slug));
    repaired++;
  }
  if (repaired > 0) opts.logger?.info({ repaired }, "blog: rewrote generated articles made by the earlier generator");
  return repaired;
}
