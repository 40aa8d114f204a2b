import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseLocalArticles } from "../parse-local-article.server.ts";

const dir = path.dirname(fileURLToPath(import.meta.url));

/** The fixture articles in this folder, as raw files. */
export function fixtureFiles(): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .map((f) => [f, readFileSync(path.join(dir, f), "utf8")]),
  );
}

export function fixtureArticles() {
  return parseLocalArticles(fixtureFiles());
}
