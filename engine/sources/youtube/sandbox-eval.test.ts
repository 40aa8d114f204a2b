import { describe, expect, it } from "vitest";
import { sandboxEval } from "./sandbox-eval.ts";

const run = (output: string, timeoutMs?: number) => sandboxEval({ output, exported: [] } as never, timeoutMs);

describe("sandboxEval", () => {
  it("returns only the string results of the player code", () => {
    expect(run('return { sig: "abc".split("").reverse().join(""), n: "x_ok", extra: {} };')).toEqual({ sig: "cba", n: "x_ok" });
    expect(run("return 42;")).toEqual({});
  });
  it("gives the code no Node globals and no host objects", () => {
    expect(run('return { sig: [typeof process, typeof require, typeof setTimeout, typeof fetch, typeof Buffer].join(",") };')).toEqual({
      sig: "undefined,undefined,undefined,undefined,undefined",
    });
    expect(run("return { sig: String(window === globalThis && self === globalThis) };")).toEqual({ sig: "true" });
  });
  it("refuses code generation from strings", () => {
    expect(() => run('return { sig: eval("1+1") };')).toThrow(/Code generation from strings disallowed/);
    expect(() => run('return { sig: (function(){}).constructor("return 1")() };')).toThrow(/Code generation from strings disallowed/);
  });
  it("stops a script that never ends", () => {
    const started = Date.now();
    expect(() => run("for (;;) {}", 200)).toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
