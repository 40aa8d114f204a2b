import pino from "pino";
import { describe, expect, it } from "vitest";
import { EngineError, type EngineErrorCode } from "../../errors.ts";
import { DEFAULT_YOUTUBE_CLIENTS, SUPPORTED_YOUTUBE_CLIENTS, ladderOf, usableClients } from "./resolve.ts";
import { ytdlpMayOvercome } from "./ytdlp-rung.ts";

const logger = pino({ level: "silent" });

describe("usableClients", () => {
  it("defaults to the evidence-based order", () => {
    expect(DEFAULT_YOUTUBE_CLIENTS).toEqual(["VISIONOS", "ANDROID"]);
    expect(usableClients([], logger)).toEqual(["VISIONOS", "ANDROID"]);
  });
  it("keeps the configured order, upper-cased, and skips unknown names", () => {
    expect(usableClients(["android", " VISIONOS ", "NOKIA"], logger)).toEqual(["ANDROID", "VISIONOS"]);
    expect(usableClients(["NOKIA"], logger)).toEqual(["VISIONOS", "ANDROID"]);
  });
  it("knows the clients youtubei.js can build", () => {
    expect(SUPPORTED_YOUTUBE_CLIENTS).toEqual(expect.arrayContaining(["VISIONOS", "ANDROID", "IOS", "WEB", "WEB_EMBEDDED", "TV"]));
  });
});

describe("ladderOf", () => {
  it("yt-dlp is the last rung where the list names it and this server has it", () => {
    expect(ladderOf(["VISIONOS", "ANDROID", "ytdlp"], true, logger)).toEqual({ clients: ["VISIONOS", "ANDROID"], ytdlp: true });
    expect(ladderOf(["VISIONOS", "ANDROID", "ytdlp"], false, logger)).toEqual({ clients: ["VISIONOS", "ANDROID"], ytdlp: false });
  });
  it("a list without ytdlp has no yt-dlp rung, even on a server with yt-dlp", () => {
    expect(ladderOf(["VISIONOS", "TV"], true, logger)).toEqual({ clients: ["VISIONOS", "TV"], ytdlp: false });
  });
  it("only ytdlp: no InnerTube client where yt-dlp is present; the InnerTube default where it is not", () => {
    expect(ladderOf(["ytdlp"], true, logger)).toEqual({ clients: [], ytdlp: true });
    expect(ladderOf(["ytdlp"], false, logger)).toEqual({ clients: ["VISIONOS", "ANDROID"], ytdlp: false });
  });
});

describe("ytdlpMayOvercome", () => {
  const ends = (code: EngineErrorCode, final = false) => ytdlpMayOvercome({ error: new EngineError(code), final });
  it("a bot wall, an age gate, no formats or a client error after every InnerTube client: yt-dlp is asked", () => {
    for (const code of ["video.bot_check", "video.age_restricted", "video.no_formats", "upstream.fetch_failed"] as const) expect(ends(code)).toBe(true);
  });
  it("a refusal about the video itself, or 'not found' from every client: yt-dlp is not asked", () => {
    expect(ends("video.private", true)).toBe(false);
    expect(ends("video.region_blocked", true)).toBe(false);
    expect(ends("video.not_found")).toBe(false);
  });
});
