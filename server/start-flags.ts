/**
 * The Node flags `npm start` runs the server with (package.json's start script: `node <flags>
 * scripts/start.mjs`; docs/decisions/026 and 031). Read where they must be matched: the
 * container image's command (server/start-flags.test.ts) and the benchmark, which runs the
 * server and its own engine rows under them (bench/start-flags.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

export function npmStartFlags(repoRoot: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  if (words[0] !== "node" || words.at(-1) !== "scripts/start.mjs") throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return words.slice(1, -1);
}
