import { describe, expect, it } from "vitest";
import { canDownload, fairUseApplies } from "./entitlements.ts";
import { FORMAT_IDS, listFormats } from "./formats.ts";
import type { Caller, FormatId, ResolvedMedia } from "./types.ts";

const PREMIUM_FORMATS: FormatId[] = ["mp4-1440", "mp4-2160", "mp4-4320", "srt", "vtt"];
const callers: Record<string, Caller> = {
  anonymous: { kind: "anonymous" },
  free: { kind: "free", userId: "u1" },
  basic: { kind: "premium", plan: "basic", userId: "u2" },
  pro: { kind: "premium", plan: "pro", userId: "u3" },
  ultimate: { kind: "premium", plan: "ultimate", userId: "u4" },
};

describe("entitlements by plan", () => {
  it.each([
    ["anonymous", false],
    ["free", false],
    ["basic", false],
    ["pro", true],
    ["ultimate", true],
  ] as const)("%s: premium formats %s, everything up to 1080p and TXT always", (name, premium) => {
    const caller = callers[name]!;
    for (const id of FORMAT_IDS) expect(canDownload(caller, id), id).toBe(PREMIUM_FORMATS.includes(id) ? premium : true);
  });

  it("a premium caller whose plan is unknown gets Basic's formats (never more than was paid for)", () => {
    expect(canDownload({ kind: "premium" }, "mp4-2160")).toBe(false);
    expect(canDownload({ kind: "premium" }, "mp4-1080")).toBe(true);
  });

  it("fair use applies to anonymous and free callers only", () => {
    expect(Object.fromEntries(Object.entries(callers).map(([k, c]) => [k, fairUseApplies(c)]))).toEqual({
      anonymous: true,
      free: true,
      basic: false,
      pro: false,
      ultimate: false,
    });
  });

  it("the format list says which formats the caller may have: not 2160p for Basic, yes for Pro", () => {
    const media = {
      platform: "generic",
      sourceUrl: "https://media.example.test/a.mp4",
      details: { id: "a", title: "A", durationSeconds: 6 },
      streams: [
        { id: "v", kind: "video", url: "https://media.example.test/v.mp4", transport: { type: "direct" }, container: "mp4", vcodec: "h264", width: 3840, height: 2160, contentLength: 1000 },
        { id: "a", kind: "audio", url: "https://media.example.test/a.m4a", transport: { type: "direct" }, container: "m4a", acodec: "aac", contentLength: 100 },
      ],
      thumbnails: [],
      captions: [],
    } as unknown as ResolvedMedia;
    const note = (caller: Caller) => listFormats(media, caller).find((f) => f.id === "mp4-2160")!;
    expect(note(callers.basic!)).toMatchObject({ available: true, premium: true, allowed: false, note: "Premium feature" });
    expect(note(callers.pro!)).toMatchObject({ available: true, premium: true, allowed: true });
    expect(note(callers.pro!).note).toBeUndefined();
  });
});
