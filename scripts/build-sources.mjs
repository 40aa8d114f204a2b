// What `npm start` compares with its build stamps (scripts/start.mjs): the site's sources, and
// the host bundle's. The host's folders are every import alias of package.json (`#engine/*`,
// `#jobs/*`, …) but the tests, whose mock platform alone is bundled; a new top-level folder
// behind an alias is watched without a second list to keep.
import { readFileSync } from "node:fs";
import path from "node:path";

export const SITE_SOURCES = ["app", "common", "content", "public", "vite.config.ts", "react-router.config.ts", "package-lock.json"];

export function hostSources(root) {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const aliased = Object.values(pkg.imports ?? {})
    .map((target) => String(target).replace(/^\.\//, "").replace(/\/\*$/, ""))
    .filter((dir) => dir !== "tests");
  return [...new Set([...aliased, "tests/mocks", "native", "tsconfig.json", "package.json", "package-lock.json", "scripts/build-host.mjs", "scripts/build-c-heap-trim.mjs"])];
}
