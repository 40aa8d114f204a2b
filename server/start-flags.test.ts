import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { npmStartFlags } from "./start-flags.ts";

const root = path.resolve(import.meta.dirname, "..");

describe("the server's Node flags", () => {
  it("are the same in the container image as in npm start", () => {
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    const cmd = /^CMD\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
    expect(cmd).toBeDefined();
    expect(JSON.parse(cmd!)).toEqual(["node", ...npmStartFlags(root), "scripts/start.mjs"]);
  });

  it("go to the same Node in the container image as npm install brings (docs/decisions/042)", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    const dockerfile = readFileSync(path.join(root, "deploy/Dockerfile"), "utf8");
    expect(pkg.dependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(/^FROM node:(\S+)-bookworm-slim$/m.exec(dockerfile)?.[1]).toBe(pkg.dependencies.node);
  });

  it("include the collector, the young generation's size and a fixed heap growth factor", () => {
    expect(npmStartFlags(root)).toEqual(expect.arrayContaining(["--expose-gc", "--max-semi-space-size=8", "--heap-growing-percent=100"]));
  });
});
