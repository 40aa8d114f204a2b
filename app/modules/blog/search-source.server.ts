import type { Database } from "#db/client.ts";
import { listArticles } from "./articles.server.ts";
import { articlePath } from "./types.ts";

/**
 * The blog's source for the site search (/search): articles where every term matches, scored
 * like pages (title 5, tags 3, excerpt 1 per term). Same shape as the site search's hits.
 */
export async function searchBlogArticles(db: Database, terms: string[]) {
  if (terms.length === 0) return [];
  const { articles } = await listArticles(db, { q: terms.join(" "), limit: 30 });
  return articles
    .map((a) => {
      const title = a.title.toLowerCase();
      const tags = a.tags.join(" ").toLowerCase();
      const excerpt = a.excerpt.toLowerCase();
      let score = 0;
      for (const t of terms) score += (title.includes(t) ? 5 : 0) + (tags.includes(t) ? 3 : 0) + (excerpt.includes(t) ? 1 : 0);
      return { title: a.title, description: a.excerpt, url: articlePath(a.slug), kind: "article" as const, score };
    })
    .filter((h) => h.score > 0);
}
