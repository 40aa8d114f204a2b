import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import { FORMAT_TABS, groupFormats, optionExplanation, optionNote, optionStatus } from "./format-groups.ts";
import { failureToast, finalMessage } from "./hooks/use-format-downloads.ts";
import { ApiError } from "./api-client.ts";
import { RetriesExhaustedError } from "./retry.ts";

const opt = (o: Partial<FormatOption> & Pick<FormatOption, "id" | "icon">): FormatOption => ({
  label: o.id,
  quality: "q",
  format: "F",
  size: "1 MB",
  available: true,
  premium: false,
  bytes: 1,
  ...o,
});

describe("format tabs", () => {
  it("are Video, Audio Only and Other (spec §9)", () => {
    expect(FORMAT_TABS.map((t) => t.label)).toEqual(["Video", "Audio Only", "Other"]);
  });

  it("sort options by kind, keeping the engine's order", () => {
    const g = groupFormats([
      opt({ id: "mp4-1080", icon: "video" }),
      opt({ id: "mp3-320", icon: "audio" }),
      opt({ id: "webm", icon: "video" }),
      opt({ id: "thumbnail-hd", icon: "image" }),
      opt({ id: "transcript", icon: "text" }),
    ]);
    expect(g.video.map((o) => o.id)).toEqual(["mp4-1080", "webm"]);
    expect(g.audio.map((o) => o.id)).toEqual(["mp3-320"]);
    expect(g.other.map((o) => o.id)).toEqual(["thumbnail-hd", "transcript"]);
  });
});

describe("option status", () => {
  it("locks premium formats for visitors without a plan and explains why", () => {
    const o = opt({ id: "mp4-2160", icon: "video", premium: true, note: "Premium feature" });
    expect(optionStatus(o, false)).toBe("locked");
    expect(optionStatus(o, true)).toBe("ready");
    expect(optionExplanation(o, "locked")).toMatch(/Premium feature/);
    expect(optionNote(o, "ready")).toBeNull();
  });

  it("follows the server's word on the caller's plan when the payload carries it", () => {
    const locked = opt({ id: "mp4-2160", icon: "video", premium: true, allowed: false, note: "Premium feature" });
    const mine = opt({ id: "mp4-2160", icon: "video", premium: true, allowed: true });
    // a Pro user on the home page (no isPremium prop) and a Basic user on the dashboard
    expect(optionStatus(mine, false)).toBe("ready");
    expect(optionStatus(locked, true)).toBe("locked");
  });

  it("marks formats the video does not have, with the engine's reason", () => {
    const o = opt({ id: "mp4-1080", icon: "video", available: false, note: "This video has no 1080p stream" });
    expect(optionStatus(o, true)).toBe("unavailable");
    expect(optionExplanation(o, "unavailable")).toBe("Not available: This video has no 1080p stream");
  });

  it("keeps honest notes on downloadable formats", () => {
    const o = opt({ id: "mp3-320", icon: "audio", note: "Source audio is 128 kbps" });
    expect(optionNote(o, "ready")).toBe("Source audio is 128 kbps");
  });
});

describe("failure wording (spec §8)", () => {
  it("uses the thumbnail and transcript toasts", () => {
    expect(failureToast({ id: "thumbnail-hd", label: "Thumbnail HD JPG" }, new ApiError("thumbnail.unavailable", "Thumbnail not available", 404))).toEqual({ title: "Thumbnail not available" });
    expect(failureToast({ id: "thumbnail-hd", label: "Thumbnail HD JPG" }, new ApiError("download.failed", "Boom", 500)).title).toBe("Failed to download thumbnail");
    expect(failureToast({ id: "transcript", label: "Video Transcript TXT" }, new ApiError("transcript.unavailable", "x", 404))).toEqual({
      title: "Not Available",
      description: "Transcript is not available for this video",
    });
    expect(failureToast({ id: "transcript", label: "Video Transcript TXT" }, new RetriesExhaustedError(new ApiError("download.failed", "Boom", 500), 3)).title).toBe(
      "Failed to download transcript",
    );
    expect(failureToast({ id: "mp4-720", label: "MP4 720p HD" }, new ApiError("download.failed", "Boom", 500))).toEqual({ title: "Download Failed", description: "Boom" });
  });

  it("says how many attempts were made before giving up", () => {
    expect(finalMessage(new RetriesExhaustedError(new ApiError("download.failed", "Our servers are experiencing an issue. Please try again later.", 500), 3))).toBe(
      "Download failed after 3 attempts. Our servers are experiencing an issue. Please try again later.",
    );
    expect(finalMessage(new RetriesExhaustedError(new ApiError("format.premium", "Premium only.", 403), 1))).toBe("Premium only.");
  });
});
