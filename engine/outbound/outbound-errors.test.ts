import { describe, expect, it } from "vitest";
import { EngineError } from "../errors.ts";
import { abortError, classifyOutboundError, isRetryableOutbound, retryBackoff, sleepUnlessAborted } from "./outbound-errors.ts";

const target = new URL("https://cdn.example.com/v.mp4");
const sockErr = (code: string) => Object.assign(new Error(code), { code });

describe("outbound errors", () => {
  it("names the host of a socket error and retries only transient ones", () => {
    const reset = classifyOutboundError(sockErr("ECONNRESET"), target);
    expect(reset).toMatchObject({ code: "upstream.fetch_failed", detail: "cdn.example.com: ECONNRESET" });
    expect(isRetryableOutbound(reset)).toBe(true);
    expect(isRetryableOutbound(classifyOutboundError(sockErr("ERR_TLS_CERT_ALTNAME_INVALID"), target))).toBe(false);
    expect(isRetryableOutbound(new EngineError("upstream.timeout", {}))).toBe(true);
    expect(isRetryableOutbound(new EngineError("link.blocked_address", {}))).toBe(false);
  });

  it("passes engine errors and aborts through untouched, and never retries an abort", () => {
    const blocked = new EngineError("link.blocked_address", { detail: "10.0.0.1" });
    expect(classifyOutboundError(blocked, target)).toBe(blocked);
    const controller = new AbortController();
    controller.abort();
    const aborted = abortError(controller.signal);
    expect(aborted.name).toBe("AbortError");
    expect(classifyOutboundError(aborted, target)).toBe(aborted);
    expect(isRetryableOutbound(aborted)).toBe(false);
    const reason = new Error("client left");
    expect(abortError(AbortSignal.abort(reason))).toBe(reason);
  });

  it("doubles the wait per retry with at most half again as jitter, capped at 10 s", () => {
    expect([0, 1, 2].map((n) => retryBackoff(n, 250, () => 0))).toEqual([250, 500, 1000]);
    expect(retryBackoff(1, 250, () => 1)).toBe(750);
    expect(retryBackoff(20, 250, () => 0)).toBe(10_000);
  });

  it("ends a wait early when the signal aborts", async () => {
    const controller = new AbortController();
    const t = performance.now();
    const wait = sleepUnlessAborted(5_000, controller.signal);
    setTimeout(() => controller.abort(new Error("teardown")), 20);
    await expect(wait).rejects.toThrow("teardown");
    expect(performance.now() - t).toBeLessThan(2_000);
    await expect(sleepUnlessAborted(1, undefined)).resolves.toBeUndefined();
  });
});
