/**
 * The YouTube client ladder (issue 32 §1, §7) on the mock platform: in each of YouTube's failure
 * modes a download completes through the next client, costs no more player requests than the
 * ladder needs and no more media requests than decision 056's budget allows, and where no client
 * can play the video fails with the catalogue's words.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERRORS, type EngineErrorCode } from "#engine/errors.ts";
import { createEngine, type Engine } from "#engine/index.ts";
import { TOKEN_FREE_REQUEST_BYTES } from "#engine/stream/refusal-ladder.ts";
import type { YouTubeModes } from "#tests/mocks/platform.ts";
import { MOCK_CAPTION_LINES } from "#tests/mocks/youtube.ts";
import { writeFakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { downloadRequestBudget, mockPlatformSuite, sourceContext } from "./helpers.ts";
import { youtubeDocument } from "./ytdlp-documents.ts";

const execFileAsync = promisify(execFile);
const VIDEO = "vidfetch720";
const URL_OF = (id: string) => `https://www.youtube.com/watch?v=${id}`;

describe("YouTube client ladder on the mock platform", () => {
  const suite = mockPlatformSuite();
  let dir = "";

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-ladder-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * A fresh engine (its own resolve cache: a mode never meets another test's cached answer);
   * `ytdlpPath`: the yt-dlp it has ("off": none, even where one is installed).
   */
  async function engineWith(clients: string[], ytdlpPath = "off"): Promise<Engine> {
    const { config } = sourceContext({ hostMap: suite.platform.hostMap, clients });
    return suite.use(await createEngine({ ...config, ytdlpPath, publicUrl: suite.origin, limits: { ...config.limits, resolveCacheSeconds: 60 } }));
  }

  /** What the platform saw for `id` while `run` ran: the player requests' clients, the media URLs' clients. */
  async function watch<T>(id: string, run: () => Promise<T>) {
    const from = suite.platform.youtubeRequests().length;
    const result = await run();
    const seen = suite.platform.youtubeRequests().slice(from).filter((r) => r.videoId === id);
    return {
      result,
      players: seen.filter((r) => r.kind === "player").map((r) => r.client),
      mediaFrom: [...new Set(seen.filter((r) => r.kind === "media").map((r) => r.client))],
      media: seen.filter((r) => r.kind === "media").length,
    };
  }

  /** Resolves and downloads mp4-720 (136 + 140): the whole file, checked with ffprobe; the requests it cost, checked against the budget. */
  async function download(modes: YouTubeModes, clients = ["VISIONOS", "ANDROID"], id = VIDEO, ytdlpPath?: string) {
    suite.platform.setYouTubeModes(modes);
    const engine = await engineWith(clients, ytdlpPath);
    const seen = await watch(id, async () => {
      const created = await engine.createDownload({ url: URL_OF(id), format: "mp4-720", caller: { kind: "anonymous" }, ip: "127.0.0.1" });
      const res = await fetch(created.downloadUrl);
      expect(res.status).toBe(200);
      const file = path.join(dir, `${Date.now()}-${created.filename}`);
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const { stdout } = await execFileAsync("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", file]);
      const probe = JSON.parse(stdout) as { format: { duration: string }; streams: Array<{ codec_type: string; height?: number }> };
      expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(720);
      expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
      expect(Math.abs(Number(probe.format.duration) - suite.platform.media.durationSeconds)).toBeLessThan(1);
    });
    const budget = downloadRequestBudget({
      // the InnerTube clients, and the embedded player an age gate adds
      ladder: clients.filter((c) => c !== "ytdlp").length + 1,
      inputBytes: [(await stat(suite.platform.media.video[720])).size, (await stat(suite.platform.media.audioM4a)).size],
      smallestRequestBytes: Math.min(sourceContext({ hostMap: suite.platform.hostMap }).config.limits.chunkBytes, TOKEN_FREE_REQUEST_BYTES),
    });
    expect(seen.players.length).toBeLessThanOrEqual(budget.players);
    expect(seen.media).toBeGreaterThan(0);
    expect(seen.media).toBeLessThanOrEqual(budget.media);
    return seen;
  }

  /** The resolve fails with `code` and the catalogue's words for it. */
  async function refused(modes: YouTubeModes, code: EngineErrorCode, id = VIDEO, clients = ["VISIONOS", "ANDROID"], ytdlpPath?: string) {
    suite.platform.setYouTubeModes(modes);
    const engine = await engineWith(clients, ytdlpPath);
    const seen = await watch(id, () => engine.resolve(URL_OF(id), { kind: "anonymous" }).then(() => undefined, (err: unknown) => err));
    expect(seen.result).toMatchObject({ code, message: ERRORS[code].message });
    return seen;
  }

  it("a playing VISIONOS costs one player request: the next client is never asked", async () => {
    const { players, mediaFrom } = await download({ botWall: ["ANDROID"] });
    expect(players).toEqual(["VISIONOS"]);
    expect(mediaFrom).toEqual(["VISIONOS"]);
  });

  it.each<[string, YouTubeModes]>([
    ["VISIONOS SABR-only", { sabrOnly: ["VISIONOS"] }],
    ["a bot wall for VISIONOS", { botWall: ["VISIONOS"] }],
    ["made-for-kids ERROR on VISIONOS only (not 'Video not found')", { kidsError: ["VISIONOS"] }],
  ])("%s: the download completes through ANDROID in two player requests", async (_name, modes) => {
    const { players, mediaFrom } = await download(modes);
    expect(players).toEqual(["VISIONOS", "ANDROID"]);
    expect(mediaFrom).toEqual(["ANDROID"]);
  });

  it("YOUTUBE_CLIENTS sets the order; a token-gated first answer does not end the ladder, and its URLs are not used", async () => {
    const { players, mediaFrom } = await download({}, ["ANDROID", "VISIONOS"]);
    expect(players).toEqual(["ANDROID", "VISIONOS"]);
    expect(mediaFrom).toEqual(["VISIONOS"]);
  });

  it("an age gate on the apps: the download completes through the embedded player the ladder adds", async () => {
    const { players, mediaFrom } = await download({ ageGate: ["VISIONOS", "ANDROID"] });
    expect(players).toEqual(["VISIONOS", "ANDROID", "WEB_EMBEDDED_PLAYER"]);
    expect(mediaFrom).toEqual(["WEB_EMBEDDED_PLAYER"]);
  });

  it("caption tracks that need a PO token on VISIONOS: the transcript comes from ANDROID's tracks, the video from VISIONOS", async () => {
    suite.platform.setYouTubeModes({ captionsNeedToken: ["VISIONOS"] });
    const engine = await engineWith(["VISIONOS", "ANDROID"]);
    const id = "vidfetchCap";
    const { result: transcript, players } = await watch(id, async () => {
      const created = await engine.createDownload({ url: URL_OF(id), format: "transcript", caller: { kind: "anonymous" }, ip: "127.0.0.1" });
      const res = await fetch(created.downloadUrl);
      expect(res.status).toBe(200);
      return res.text();
    });
    expect(transcript).toBe(`${MOCK_CAPTION_LINES.map((l) => l.text).join(" ")}\n`);
    expect(players).toEqual(["VISIONOS", "ANDROID"]);
    const { mediaFrom } = await watch(id, async () => {
      const created = await engine.createDownload({ url: URL_OF(id), format: "mp4-720", caller: { kind: "anonymous" }, ip: "127.0.0.1" });
      await (await fetch(created.downloadUrl)).arrayBuffer();
    });
    expect(mediaFrom).toEqual(["VISIONOS"]);
  });

  describe("when no client can play the video", () => {
    it.each<[string, YouTubeModes, EngineErrorCode]>([
      ["a bot wall on every client says so", { botWall: ["VISIONOS", "ANDROID"] }, "video.bot_check"],
      ["VISIONOS's made-for-kids ERROR gives way to the other client's reason", { kidsError: ["VISIONOS"], botWall: ["ANDROID"] }, "video.bot_check"],
      ["'Video not found' only when every client says so", { kidsError: ["VISIONOS", "ANDROID"] }, "video.not_found"],
      ["SABR-only everywhere has no downloadable formats", { sabrOnly: ["VISIONOS", "ANDROID"] }, "video.no_formats"],
    ])("%s", async (_name, modes, code) => {
      const { players } = await refused(modes, code);
      expect(players).toEqual(["VISIONOS", "ANDROID"]);
    });

    it("a refusal about the video itself ends the ladder at the first client", async () => {
      const { players } = await refused({ sabrOnly: ["VISIONOS"] }, "video.private", "vidfetchPrv");
      expect(players).toEqual(["VISIONOS"]);
    });

    it("an age-gated video that may not be embedded: the embedded player is not asked", async () => {
      const { players } = await refused({ ageGate: ["VISIONOS", "ANDROID"], notEmbeddable: true }, "video.age_restricted");
      expect(players).toEqual(["VISIONOS", "ANDROID"]);
    });

    it("an age gate asks the embedded player too before giving up", async () => {
      const { players } = await refused({}, "video.age_restricted", "vidfetchAge");
      expect(players).toEqual(["VISIONOS", "ANDROID", "WEB_EMBEDDED_PLAYER"]);
    });
  });
  describe("yt-dlp, the last rung", () => {
    const LADDER = ["VISIONOS", "ANDROID", "ytdlp"];
    /** A stand-in yt-dlp printing what yt-dlp prints for the video, its formats on the mock platform. */
    const fakeYtdlp = () => writeFakeYtdlp({ type: "json", document: youtubeDocument(suite.platform.media, VIDEO) });

    it.each<[string, YouTubeModes]>([
      ["SABR-only everywhere", { sabrOnly: ["VISIONOS", "ANDROID"] }],
      ["a bot wall everywhere", { botWall: ["VISIONOS", "ANDROID"] }],
    ])("%s: the download completes through yt-dlp's formats, fetched by our engine", async (_name, modes) => {
      const fake = await fakeYtdlp();
      const { players, mediaFrom } = await download(modes, LADDER, VIDEO, fake.path);
      expect(players).toEqual(["VISIONOS", "ANDROID"]);
      expect(mediaFrom).toEqual(["ytdlp"]);
      expect((await fake.runs()).map((r) => r.link)).toEqual([URL_OF(VIDEO)]);
    });

    it("its media is a YouTube video: the audio arrives byte for byte, the details are YouTube's", async () => {
      suite.platform.setYouTubeModes({ botWall: ["VISIONOS", "ANDROID"] });
      const fake = await fakeYtdlp();
      const engine = await engineWith(LADDER, fake.path);
      const { video, formats } = await engine.resolve(URL_OF(VIDEO), { kind: "anonymous" });
      expect(video).toMatchObject({ id: VIDEO, platform: "youtube", title: "Sample clip up to 720p", channelTitle: "Tiny Channel", downloadUrl: URL_OF(VIDEO) });
      expect(formats.filter((f) => f.available).map((f) => f.id)).toEqual(expect.arrayContaining(["mp4-720", "mp4-360", "m4a"]));
      // tags off: the file as the platform has it, to compare byte for byte (files are tagged by default, issue 33 §3)
      const created = await engine.createDownload({ url: URL_OF(VIDEO), format: "m4a", caller: { kind: "anonymous" }, ip: "127.0.0.1", options: { tags: false } });
      const res = await fetch(created.downloadUrl);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(await readFile(suite.platform.media.audioM4a))).toBe(true);
    });

    it("a playing VISIONOS: yt-dlp is never run", async () => {
      const fake = await fakeYtdlp();
      const { mediaFrom } = await download({}, LADDER, VIDEO, fake.path);
      expect(mediaFrom).toEqual(["VISIONOS"]);
      expect(await fake.runs()).toEqual([]);
    });

    it("a private video: the ladder ends at the first client and yt-dlp is never run", async () => {
      const fake = await fakeYtdlp();
      const { players } = await refused({}, "video.private", "vidfetchPrv", LADDER, fake.path);
      expect(players).toEqual(["VISIONOS"]);
      expect(await fake.runs()).toEqual([]);
    });

    it("YOUTUBE_CLIENTS without ytdlp: yt-dlp is never run", async () => {
      const fake = await fakeYtdlp();
      await refused({ botWall: ["VISIONOS", "ANDROID"] }, "video.bot_check", VIDEO, ["VISIONOS", "ANDROID"], fake.path);
      expect(await fake.runs()).toEqual([]);
    });

    it.each<[string, YouTubeModes, EngineErrorCode]>([
      ["a bot wall everywhere", { botWall: ["VISIONOS", "ANDROID"] }, "video.bot_check"],
      ["SABR-only everywhere", { sabrOnly: ["VISIONOS", "ANDROID"] }, "video.no_formats"],
    ])("no yt-dlp on this server, %s: the ladder fails as it did without the rung", async (_name, modes, code) => {
      const { players } = await refused(modes, code, VIDEO, LADDER, "off");
      expect(players).toEqual(["VISIONOS", "ANDROID"]);
    });

    it("yt-dlp failing too: the InnerTube ladder's error stands", async () => {
      const fake = await writeFakeYtdlp({ type: "error", line: "[youtube] vidfetch720: Sign in to confirm you're not a bot. Use --cookies-from-browser or --cookies for the authentication." });
      await refused({ botWall: ["VISIONOS", "ANDROID"] }, "video.bot_check", VIDEO, LADDER, fake.path);
      expect(await fake.runs()).toHaveLength(1);
    });
  });
});
