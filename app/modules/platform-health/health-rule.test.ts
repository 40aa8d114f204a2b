import { describe, expect, it } from "vitest";
import { healthVerdict, recordsHealth, STATUS_WINDOW_MS, type HealthOutcome } from "./health-rule.ts";

const NOW = 1_800_000_000_000;
const ok = (minutesAgo: number): HealthOutcome => ({ at: NOW - minutesAgo * 60_000, ok: true, code: null, source: "resolve" });
const fail = (minutesAgo: number, code = "video.bot_check"): HealthOutcome => ({ at: NOW - minutesAgo * 60_000, ok: false, code, source: "canary" });

describe("platform status rule", () => {
  it("is ok with no outcomes, with successes only, and with a single failure among them", () => {
    expect(healthVerdict("YouTube", [], NOW)).toEqual({ status: "ok", counts: { successes: 0, failures: {}, videoStates: {} }, detail: null });
    expect(healthVerdict("YouTube", [ok(1), ok(2)], NOW).status).toBe("ok");
    expect(healthVerdict("YouTube", [ok(1), fail(2), ok(3)], NOW).status).toBe("ok");
  });

  it("is down after three failures and no success in the window, naming the cause", () => {
    const verdict = healthVerdict("YouTube", [fail(1), fail(5), fail(9), ok(31)], NOW);
    expect(verdict.status).toBe("down");
    expect(verdict.detail).toBe("YouTube downloads are not working right now; we're on it. YouTube is asking our server to prove it is not a bot.");
    expect(verdict.counts).toEqual({ successes: 0, failures: { "video.bot_check": 3 }, videoStates: {} });
  });

  it("is degraded when failures are a quarter or more of the attempts, and ok below", () => {
    const degraded = healthVerdict("Vimeo", [fail(1, "upstream.timeout"), fail(2, "upstream.timeout"), ok(3), ok(4), ok(5), ok(6)], NOW);
    expect(degraded.status).toBe("degraded");
    expect(degraded.detail).toBe("Vimeo downloads are less reliable than usual right now: 2 of the last 6 attempts failed. Vimeo is answering too slowly.");
    expect(healthVerdict("Vimeo", [fail(1), fail(2), ok(3), ok(4), ok(5), ok(6), ok(7), ok(8), ok(9)], NOW).status).toBe("ok");
  });

  it("names a platform that refuses to send its videos", () => {
    expect(healthVerdict("YouTube", [fail(1, "upstream.refused"), fail(2, "upstream.refused"), fail(3, "upstream.timeout")], NOW).detail).toBe(
      "YouTube downloads are not working right now; we're on it. YouTube is refusing to send its videos to our server.",
    );
  });

  it("two failures alone are degraded, not down", () => {
    expect(healthVerdict("YouTube", [fail(1), fail(2)], NOW).status).toBe("degraded");
  });

  it("forgets outcomes older than the window and ignores the future", () => {
    const old = [fail(STATUS_WINDOW_MS / 60_000 + 1), fail(40), fail(50)];
    expect(healthVerdict("YouTube", old, NOW).status).toBe("ok");
    expect(healthVerdict("YouTube", [...old, fail(-5)], NOW).status).toBe("ok");
  });

  it("a video's own state counts neither way; a code with no cause a visitor can use gets no cause words", () => {
    const privateVideos = [fail(1, "video.private"), fail(2, "video.not_found"), fail(3, "video.age_restricted"), fail(4, "video.region_blocked")];
    const verdict = healthVerdict("YouTube", privateVideos, NOW);
    expect(verdict.status).toBe("ok");
    expect(verdict.counts.videoStates).toEqual({ "video.private": 1, "video.not_found": 1, "video.age_restricted": 1, "video.region_blocked": 1 });
    expect(healthVerdict("YouTube", [fail(1, "download.failed"), fail(2, "download.failed"), fail(3, "download.failed")], NOW).detail).toBe(
      "YouTube downloads are not working right now; we're on it.",
    );
  });

  it("records platform failures and video states, never our own refusals", () => {
    expect(["video.bot_check", "upstream.timeout", "upstream.refused", "video.private", "download.failed"].map(recordsHealth)).toEqual([true, true, true, true, true]);
    expect(["link.invalid", "format.premium", "download.rate_limited", "download.busy", "plan.required"].map(recordsHealth)).toEqual([false, false, false, false, false]);
  });
});

describe("platform status rule, downloads against resolves", () => {
  const at = (minutesAgo: number) => NOW - minutesAgo * 60_000;
  const resolved = (minutesAgo: number): HealthOutcome => ({ at: at(minutesAgo), ok: true, code: null, source: "resolve" });
  const refused = (minutesAgo: number): HealthOutcome => ({ at: at(minutesAgo), ok: false, code: "upstream.refused", source: "download" });

  it("a platform that answers every resolve and refuses every download is down, naming the refusal", () => {
    const outcomes = [resolved(1), resolved(2), refused(3), resolved(4), resolved(5), refused(6), resolved(7), resolved(8), refused(9)];
    expect(healthVerdict("YouTube", outcomes, NOW)).toMatchObject({
      status: "down",
      detail: "YouTube downloads are not working right now; we're on it. YouTube is refusing to send its videos to our server.",
    });
  });

  it("resolve successes count while no download failed, and a download that came counts as a success", () => {
    const failures = [fail(1), fail(2), fail(3)];
    expect(healthVerdict("YouTube", [...failures, resolved(4)], NOW).status).toBe("degraded");
    const delivered: HealthOutcome = { at: at(4), ok: true, code: null, source: "download" };
    expect(healthVerdict("YouTube", [refused(1), refused(2), refused(3), delivered, resolved(5)], NOW)).toMatchObject({ status: "degraded", detail: expect.stringContaining("3 of the last 4 attempts failed") });
  });
});
