import { SITE_PAGES, type SitePage } from "./pages.ts";

/**
 * The page a visitor most likely wanted when they hit a missing path (the 404 page redirects
 * there after 30 seconds): /faqs → /faq, /privacy → /privacy-policy, /how-to → /how-to-download.
 * Scored against each listed page's path, title and keywords, with typo tolerance; "/" when
 * nothing matches well enough.
 */
const STOP_WORDS = new Set([
  ...["the", "and", "for", "with", "www", "html", "htm", "php", "asp", "aspx", "index", "page", "pages", "our", "your"],
  // words of a made-up or broken link that say nothing about where the visitor meant to go
  ...["this", "that", "does", "not", "exist", "exists", "missing", "old", "new", "test", "here", "there", "link"],
]);

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 2 && !STOP_WORDS.has(t));
}

/** Plural and common suffix variants collapse onto one stem ("faqs" → "faq", "sites" → "site"). */
function stem(token: string): string {
  if (token.length > 4 && token.endsWith("ies")) return token.slice(0, -3) + "y";
  if (token.length > 3 && token.endsWith("s") && !token.endsWith("ss")) return token.slice(0, -1);
  return token;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      // Adjacent transposition ("downlaod") counts as one edit.
      let best = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (prev[j - 2] ?? Infinity) + 1);
      cur.push(best);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** How well one token from the missing path matches one word of a page: 0 (not) to 1 (exact). */
function similarity(query: string, word: string): number {
  const q = stem(query);
  const w = stem(word);
  if (q === w) return 1;
  // A prefix of a longer word: "priv" → "privacy", "download" → "downloader".
  if (q.length >= 3 && w.startsWith(q)) return 0.8;
  if (w.length >= 4 && q.startsWith(w)) return 0.7;
  const allowed = q.length >= 7 ? 2 : q.length >= 4 ? 1 : 0;
  if (allowed && editDistance(q, w) <= allowed) return 0.75;
  return 0;
}

function bestMatch(query: string, words: string[]): number {
  let best = 0;
  for (const w of words) best = Math.max(best, similarity(query, w));
  return best;
}

export interface RelevantPage {
  path: string;
  title: string;
}

/** Score every listed page for a missing path; highest first. Exported for tests. */
export function scorePages(missingPath: string, pages: readonly SitePage[] = SITE_PAGES): Array<{ page: SitePage; score: number }> {
  let decoded = missingPath;
  try {
    decoded = decodeURIComponent(missingPath);
  } catch {
    // A malformed escape is just more noise in a path that does not exist anyway.
  }
  const query = tokens(decoded.split(/[?#]/)[0] ?? "");
  if (query.length === 0) return [];
  return pages
    .filter((p) => p.listed !== false && p.path !== "/")
    .map((page) => {
      const pathWords = tokens(page.path);
      const titleWords = tokens(page.title);
      const keywordWords = page.keywords.flatMap(tokens);
      let score = 0;
      for (const q of query) {
        // The path is the strongest signal, then keywords, then the title.
        score += Math.max(bestMatch(q, pathWords) * 3, bestMatch(q, keywordWords) * 2, bestMatch(q, titleWords) * 1.5);
      }
      // Prefer pages whose path is entirely covered by the query (/privacy-policy for "privacy policy").
      const covered = pathWords.filter((w) => query.some((q) => similarity(q, w) >= 0.75)).length;
      if (pathWords.length > 0) score += covered / pathWords.length;
      // Separators typed differently ("/site-map", "/howtodownload"): compare the paths squashed.
      const squashed = query.join("");
      const pagePath = pathWords.join("");
      if (pagePath.length >= 3 && similarity(squashed, pagePath) >= 0.75) score += 4;
      return { page, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || b.page.priority - a.page.priority);
}

/** Minimum score: one solid keyword match. Below that the home page is the better guess. */
const THRESHOLD = 1.5;

export function findRelevantPage(missingPath: string, pages: readonly SitePage[] = SITE_PAGES): RelevantPage {
  const best = scorePages(missingPath, pages)[0];
  if (!best || best.score < THRESHOLD) {
    const home = pages.find((p) => p.path === "/");
    return { path: "/", title: home ? "Home" : "Home" };
  }
  return { path: best.page.path, title: best.page.title };
}
