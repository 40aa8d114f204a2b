import { describe, expect, it } from "vitest";
import { classifyPlayability } from "./playability.ts";

const status = (s: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ playabilityStatus: s, ...extra });

describe("classifyPlayability", () => {
  it("accepts a playable video", () => {
    expect(classifyPlayability(status({ status: "OK" }, { videoDetails: { isLive: false } }))).toBeNull();
  });
  it("unwraps reel_item_watch's playerResponse", () => {
    expect(classifyPlayability({ playerResponse: status({ status: "LOGIN_REQUIRED", reason: "This video is private" }) })).toMatchObject({
      code: "video.private",
      retryable: false,
    });
  });
  it("treats an empty body as not found", () => {
    expect(classifyPlayability({})).toMatchObject({ code: "video.not_found", retryable: true });
  });
  it.each([
    // another client may still play it (made-for-kids on VISIONOS): not found only when all agree
    [{ status: "ERROR", reason: "This video is unavailable" }, "video.not_found", true],
    [{ status: "ERROR", reason: "This video has been removed by the uploader" }, "video.unavailable", false],
    [{ status: "UNPLAYABLE", reason: "The uploader has not made this video available in your country" }, "video.region_blocked", false],
    [{ status: "UNPLAYABLE", reason: "This video is only available to Music Premium members" }, "video.music_premium", false],
    [{ status: "UNPLAYABLE", reason: "Join this channel to get access to members-only content like this video, and other exclusive perks." }, "video.members_only", false],
    [{ status: "UNPLAYABLE", reason: "This video requires payment to watch." }, "video.paid", false],
    [{ status: "LOGIN_REQUIRED", reason: "Sign in to confirm you\u2019re not a bot" }, "video.bot_check", true],
    [{ status: "LOGIN_REQUIRED", reason: "This video may be inappropriate for some users.", desktopLegacyAgeGateReason: 1 }, "video.age_restricted", true],
    [{ status: "AGE_VERIFICATION_REQUIRED", reason: "Sign in to confirm your age" }, "video.age_restricted", true],
    [{ status: "LOGIN_REQUIRED", reason: "Please sign in" }, "video.unavailable", true],
    [{ status: "UNPLAYABLE", reason: "Something new" }, "video.unavailable", true],
  ])("maps %j", (s, code, retryable) => {
    expect(classifyPlayability(status(s))).toMatchObject({ code, retryable });
  });
  it("says whether the embedded player may play it", () => {
    expect(classifyPlayability(status({ status: "LOGIN_REQUIRED", reason: "Sign in to confirm your age", playableInEmbed: false }))).toMatchObject({
      code: "video.age_restricted",
      embeddable: false,
    });
    expect(classifyPlayability(status({ status: "LOGIN_REQUIRED", reason: "Sign in to confirm your age" }))?.embeddable).toBe(true);
  });
  it("does not read 'current' or 'parent' as a rental", () => {
    expect(classifyPlayability(status({ status: "UNPLAYABLE", reason: "Not playable on the current parent device" }))?.code).toBe("video.unavailable");
  });
  it("reads the reason from the error screen when there is no top-level reason", () => {
    const s = { status: "UNPLAYABLE", errorScreen: { playerErrorMessageRenderer: { reason: { runs: [{ text: "Video unavailable in your country" }] } } } };
    expect(classifyPlayability(status(s))?.code).toBe("video.region_blocked");
  });
  it("detects live and upcoming", () => {
    expect(classifyPlayability(status({ status: "OK" }, { videoDetails: { isLive: true } }))?.code).toBe("video.live");
    expect(classifyPlayability(status({ status: "OK" }, { videoDetails: { isUpcoming: true } }))?.code).toBe("video.upcoming");
    const offline = { status: "LIVE_STREAM_OFFLINE", reason: "This live event will begin in 18 hours.", liveStreamability: { liveStreamabilityRenderer: { offlineSlate: {} } } };
    expect(classifyPlayability(status(offline))?.code).toBe("video.upcoming");
    expect(classifyPlayability(status({ status: "LIVE_STREAM_OFFLINE", reason: "This live stream recording is not available." }))?.code).toBe("video.unavailable");
  });
});
