import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.ts";
import { isAbortError } from "./abort-error.ts";

describe("isAbortError", () => {
  it("recognises an abort, also wrapped by a reader", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
    expect(isAbortError(new EngineError("upstream.fetch_failed", { detail: "chunk at 0", cause: controller.signal.reason }))).toBe(true);
    expect(isAbortError(Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" }))).toBe(true);
  });

  it("does not take a real failure for an abort", () => {
    expect(isAbortError(new EngineError("upstream.fetch_failed", { detail: "chunk at 0", cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) }))).toBe(false);
    expect(isAbortError(new EngineError("upstream.expired"))).toBe(false);
    expect(isAbortError("aborted")).toBe(false);
    expect(isAbortError(undefined)).toBe(false);
  });
});
