import { describe, expect, it } from "vitest";
import { describeProbe, probeServer } from "./probe-server.ts";

function clock(step: number) {
  let t = 0;
  return () => (t += step);
}

describe("probeServer", () => {
  it("reports a reachable server with its latency, bypassing caches", async () => {
    let seen: RequestInit | undefined;
    const result = await probeServer({
      fetch: async (_url, init) => {
        seen = init;
        return new Response('{"status":"ok"}', { status: 200 });
      },
      now: clock(42),
    });
    expect(result).toEqual({ ok: true, latencyMs: 42 });
    expect(seen?.cache).toBe("no-store");
    expect(describeProbe(result)).toBe("Our servers answered in 42 ms.");
  });

  it("reports a server error", async () => {
    const result = await probeServer({ fetch: async () => new Response("", { status: 503 }), now: clock(1) });
    expect(result).toMatchObject({ ok: false, reason: "server-error", status: 503 });
  });

  it("reports a network failure", async () => {
    const result = await probeServer({
      fetch: async () => {
        throw new TypeError("Failed to fetch");
      },
    });
    expect(result).toMatchObject({ ok: false, reason: "unreachable" });
    expect(describeProbe(result)).toMatch(/Unable to connect to our servers/);
  });

  it("gives up after the timeout", async () => {
    const result = await probeServer({
      timeoutMs: 20,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))),
    });
    expect(result).toMatchObject({ ok: false, reason: "timeout" });
    expect(describeProbe(result)).toBe("The request timed out. Please try again when you have a stronger connection.");
  });
});
