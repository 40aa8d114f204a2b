import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCHeapTrim } from "../scripts/build-c-heap-trim.mjs";
import { loadCHeapTrim } from "./c-heap-trim.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "vidfetch-c-heap-trim-"));
const built = path.join(dir, "c-heap-trim.node");
const notBuilt = buildCHeapTrim(built);
if (notBuilt) console.log(`[notice] the C heap trim could not be built here (${notBuilt}): its tests are skipped`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the C heap trim", () => {
  it.skipIf(notBuilt !== null)("gives back the pages of freed buffers that a small live block kept resident", () => {
    // 250 MB of 64 KiB buffers (a download's socket reads are such buffers) with a small block
    // kept every 50 of them, as long-lived allocations end up between them; then all freed
    const script = `
      const trim = require(${JSON.stringify(built)}).trim;
      const rss = () => Number(/VmRSS:\\s+(\\d+)/.exec(require("fs").readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
      let bufs = [];
      const keep = [];
      for (let i = 0; i < 4000; i++) {
        bufs.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
        if (i % 50 === 0) keep.push(Buffer.allocUnsafeSlow(1024).fill(2));
      }
      bufs = null;
      global.gc();
      global.gc();
      setTimeout(() => {
        const collected = rss();
        const gaveBack = trim();
        console.log(JSON.stringify({ collected, trimmed: rss(), gaveBack, kept: keep.length }));
      }, 300);`;
    const out = JSON.parse(execFileSync(process.execPath, ["--expose-gc", "-e", script], { encoding: "utf8" })) as { collected: number; trimmed: number; gaveBack: number };
    // the collection alone leaves them resident; the trim returns them
    expect(out.collected).toBeGreaterThan(200);
    expect(out.collected - out.trimmed).toBeGreaterThan(150);
    expect(out.gaveBack).toBe(1);
  });

  it.skipIf(notBuilt !== null)("loads as a function the server calls", () => {
    const trim = loadCHeapTrim(built);
    expect(trim).toBeTypeOf("function");
    expect(() => trim!()).not.toThrow();
  });

  it("is off, never failing the start, when it was not built or is not a module", () => {
    expect(loadCHeapTrim(path.join(dir, "missing.node"))).toBeNull();
    const broken = path.join(dir, "broken.node");
    writeFileSync(broken, "not a shared object");
    expect(loadCHeapTrim(broken)).toBeNull();
  });

  it("says why it is not built when there is no C compiler", () => {
    const previous = process.env.CC;
    process.env.CC = path.join(dir, "no-such-cc");
    try {
      expect(buildCHeapTrim(path.join(dir, "x.node"))).toMatch(process.platform === "linux" ? /^no C compiler/ : /^not on Linux/);
    } finally {
      if (previous === undefined) delete process.env.CC;
      else process.env.CC = previous;
    }
  });
});
