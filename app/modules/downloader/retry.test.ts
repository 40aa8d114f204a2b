import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, RETRY_DELAY_MS, RetriesExhaustedError, withRetries } from "./retry.ts";

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe("withRetries", () => {
  it("uses the spec's three attempts, 1.5 s apart", () => {
    expect(MAX_ATTEMPTS).toBe(3);
    expect(RETRY_DELAY_MS).toBe(1500);
  });

  it("returns the first success and reports each attempt number", async () => {
    const { waits, sleep } = recordingSleep();
    const seen: number[] = [];
    let calls = 0;
    const result = await withRetries(
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`fail ${calls}`);
        return "ok";
      },
      { sleep, onAttempt: (n) => seen.push(n) },
    );
    expect(result).toBe("ok");
    expect(seen).toEqual([1, 2, 3]);
    expect(waits).toEqual([1500, 1500]);
  });

  it("gives up after the third failure with the last error", async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const err = await withRetries(
      async () => {
        calls += 1;
        throw new Error(`fail ${calls}`);
      },
      { sleep },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect((err as RetriesExhaustedError).attempts).toBe(3);
    expect((err as RetriesExhaustedError).message).toBe("fail 3");
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it("stops at once when the failure cannot change", async () => {
    const { waits, sleep } = recordingSleep();
    let calls = 0;
    const err = await withRetries(
      async () => {
        calls += 1;
        throw new Error("refused");
      },
      { sleep, shouldRetry: () => false },
    ).catch((e: unknown) => e);
    expect((err as RetriesExhaustedError).attempts).toBe(1);
    expect(calls).toBe(1);
    expect(waits).toEqual([]);
  });

  it("waits in real time between attempts", async () => {
    const started = Date.now();
    let calls = 0;
    await withRetries(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("once");
      },
      { delayMs: 50 },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
