import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** The Node flags `npm start` runs the server with (docs/decisions/026 and 031). */
function npmStartFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  expect(words[0]).toBe("node");
  expect(words.at(-1)).toBe("scripts/start.mjs");
  return words.slice(1, -1);
}

describe("the server's Node flags", () => {
  it("are the same in the container image as in npm start", () => {
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(["node", ...npmStartFlags(), "scripts/start.mjs"]);
  });

  it("include the collector, the young generation's size and a fixed heap growth factor", () => {
    expect(npmStartFlags()).toEqual(expect.arrayContaining(["--expose-gc", "--max-semi-space-size=8", "--heap-growing-percent=100"]));
  });
});
