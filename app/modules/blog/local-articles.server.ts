import { parseLocalArticles } from "./parse-local-article.server.ts";
import type { Article } from "./types.ts";

/**
 * The local articles, bundled at build time from content/blog/*.md (so the server needs no
 * path to the repository at run time). Parsed and validated once, on first use; a bad file
 * fails loudly with every problem named (content tests catch it before a deploy).
 */
const FILES = import.meta.glob<string>("/content/blog/*.md", { query: "?raw", import: "default", eager: true });

let cache: Article[] | undefined;

export function getLocalArticles(): Article[] {
  cache ??= parseLocalArticles(Object.fromEntries(Object.entries(FILES).map(([p, raw]) => [p.split("/").pop()!, raw])));
  return cache;
}
