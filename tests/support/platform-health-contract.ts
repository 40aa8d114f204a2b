import { expect, it } from "vitest";
import { KEPT_OUTCOMES } from "#app/modules/platform-health/health-rule.ts";
import type { PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";

/** The platform health record's behaviour, run against the in-process store and the Redis one; `make` gives a fresh key space. */
export function platformHealthContract(make: () => PlatformHealthStore): void {
  it("keeps each platform's outcomes apart and remembers its last success", async () => {
    const store = make();
    await store.record("youtube", { at: 1000, ok: true, code: null, source: "resolve" });
    await store.record("youtube", { at: 2000, ok: false, code: "video.bot_check", source: "canary" });
    await store.record("vimeo", { at: 1500, ok: false, code: "upstream.timeout", source: "resolve" });
    const youtube = await store.read("youtube");
    expect(youtube.lastSuccessAt).toBe(1000);
    expect(youtube.outcomes.sort((a, b) => a.at - b.at)).toEqual([
      { at: 1000, ok: true, code: null, source: "resolve" },
      { at: 2000, ok: false, code: "video.bot_check", source: "canary" },
    ]);
    expect(await store.read("vimeo")).toEqual({ outcomes: [{ at: 1500, ok: false, code: "upstream.timeout", source: "resolve" }], lastSuccessAt: null });
    expect(await store.read("tiktok")).toEqual({ outcomes: [], lastSuccessAt: null });
  });

  it("keeps only the newest outcomes, and a success recorded late does not move the last success back", async () => {
    const store = make();
    for (let i = 1; i <= KEPT_OUTCOMES + 5; i++) await store.record("youtube", { at: i * 1000, ok: true, code: null, source: "resolve" });
    await store.record("youtube", { at: 10, ok: true, code: null, source: "canary" });
    const { outcomes, lastSuccessAt } = await store.read("youtube");
    expect(outcomes).toHaveLength(KEPT_OUTCOMES);
    expect(Math.min(...outcomes.filter((o) => o.source === "resolve").map((o) => o.at))).toBe(7000);
    expect(lastSuccessAt).toBe((KEPT_OUTCOMES + 5) * 1000);
  });
}
