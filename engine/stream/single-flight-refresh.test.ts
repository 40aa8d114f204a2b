import { describe, expect, it } from "vitest";
import { createSingleFlightRefresh } from "./single-flight-refresh.ts";

describe("single-flight re-resolve", () => {
  it("serves every refusal seen with the same URL with one re-resolve", async () => {
    let calls = 0;
    const r = createSingleFlightRefresh(
      async () => {
        calls++;
        await new Promise((res) => setTimeout(res, 5));
      },
      { max: 3 },
    );
    const seen = r.generation;
    const results = await Promise.all([r.refresh(seen), r.refresh(seen), r.refresh(seen)]);
    expect(results).toEqual([true, true, true]);
    expect(calls).toBe(1);
    // a refusal that used the old URL just retries with the new one
    expect(await r.refresh(seen)).toBe(true);
    expect(calls).toBe(1);
  });

  it("gives up after `max` re-resolves, or at once without a way to re-resolve", async () => {
    let calls = 0;
    const r = createSingleFlightRefresh(async () => void calls++, { max: 2 });
    expect(await r.refresh(r.generation)).toBe(true);
    expect(await r.refresh(r.generation)).toBe(true);
    expect(await r.refresh(r.generation)).toBe(false);
    expect(calls).toBe(2);
    expect(await createSingleFlightRefresh(undefined, { max: 3 }).refresh(0)).toBe(false);
  });

  it("passes a failing re-resolve on to every waiter", async () => {
    const r = createSingleFlightRefresh(async () => Promise.reject(new Error("gone")), { max: 3 });
    await expect(Promise.all([r.refresh(0), r.refresh(0)])).rejects.toThrow("gone");
    expect(r.generation).toBe(0);
  });
});
