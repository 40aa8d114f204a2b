import type { Database } from "#db/client.ts";
import { searchBlogArticles } from "#app/modules/blog/search-source.server.ts";
import { MAX_QUERY_LENGTH, SITE_PAGES } from "./pages.ts";

export interface SearchHit {
  title: string;
  description: string;
  url: string;
  kind: "page" | "article";
  score: number;
}

/** A source of search hits; pages are one, the blog adds its articles as another. */
export type SearchSource = (db: Database, terms: string[]) => Promise<SearchHit[]>;


/** Lower-case words of at least two characters, without punctuation. */
export function searchTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .slice(0, MAX_QUERY_LENGTH)
        .toLowerCase()
        .normalize("NFKD")
        .replace(/[^\p{L}\p{N}\s-]/gu, " ")
        .split(/\s+/)
        .filter((w) => w.length >= 2),
    ),
  ];
}

/** Score text against terms: title matches weigh most, then keywords, then description. */
export function scoreText(terms: string[], fields: { title: string; keywords?: string[]; description: string; path?: string }): number {
  const title = fields.title.toLowerCase();
  const keywords = (fields.keywords ?? []).join(" ").toLowerCase();
  const description = fields.description.toLowerCase();
  const pathText = (fields.path ?? "").toLowerCase();
  let score = 0;
  for (const term of terms) {
    let termScore = 0;
    if (title.includes(term)) termScore += 5;
    if (keywords.includes(term)) termScore += 3;
    if (pathText.includes(term)) termScore += 2;
    if (description.includes(term)) termScore += 1;
    // every term must match somewhere for the hit to count
    if (termScore === 0) return 0;
    score += termScore;
  }
  return score;
}

export const searchPages: SearchSource = async (_db, terms) =>
  SITE_PAGES.filter((p) => p.listed !== false)
    .map((p) => ({ title: p.title, description: p.description, url: p.path, kind: "page" as const, score: scoreText(terms, p) }))
    .filter((h) => h.score > 0);

/** Sources searched, in order. The blog registers its articles here. */
export const SEARCH_SOURCES: SearchSource[] = [searchPages, searchBlogArticles];

export async function searchSite(db: Database, query: string, limit = 30): Promise<SearchHit[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  const results = await Promise.all(SEARCH_SOURCES.map((source) => source(db, terms)));
  return results
    .flat()
    .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title))
    .slice(0, limit);
}
