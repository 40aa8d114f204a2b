/**
 * Caption tracks that need a proof-of-origin token on every InnerTube client (issue 32 §1, review
 * youtube-2026-11 Y6: their URLs say `exp=xpe`, and the mock's caption host refuses them without
 * `pot=`), with no token provider: the transcript comes from yt-dlp's tracks, the last rung, in one
 * yt-dlp run and without a request to a URL that needs a token; without yt-dlp the transcript is
 * "not available" in the catalogue's words while the video still downloads.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ERRORS } from "#engine/errors.ts";
import { createEngine, type Engine } from "#engine/index.ts";
import { MOCK_CAPTION_LINES } from "#tests/mocks/youtube.ts";
import { writeFakeYtdlp, type FakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { mockPlatformSuite, sourceContext } from "./helpers.ts";
import { youtubeDocument } from "./ytdlp-documents.ts";

const VIDEO = "vidfetchCap";
const LINK = `https://www.youtube.com/watch?v=${VIDEO}`;
const EVERY_CLIENT = { captionsNeedToken: ["VISIONOS", "ANDROID"] };
const caller = { kind: "anonymous" as const };
// SRT and VTT are a plan's (the transcript anyone's)
const PRO = { kind: "premium" as const, plan: "pro" as const };

/** "00:00:02,000": an SRT (",") or VTT (".") clock */
const clock = (ms: number, sep: string) => `${new Date(ms).toISOString().slice(11, 19)}${sep}${String(ms % 1000).padStart(3, "0")}`;

describe("caption tracks that need a token on every client", () => {
  const suite = mockPlatformSuite();
  let fake: FakeYtdlp | undefined;
  afterEach(() => (fake = undefined));

  async function engineWith(clients: string[], ytdlpPath = "off"): Promise<Engine> {
    const { config } = sourceContext({ hostMap: suite.platform.hostMap, clients });
    return suite.use(await createEngine({ ...config, ytdlpPath, publicUrl: suite.origin, limits: { ...config.limits, resolveCacheSeconds: 60 } }));
  }

  /**
   * A stand-in yt-dlp for the video whose tracks are what yt-dlp lists when its token plugin gave
   * it a subs token: the timedtext URL with `exp=xpe`, `pot=` and the format (json3 first, as
   * YouTube's are), marked `ei=ytdlp`.
   */
  async function ytdlpWithTracks(): Promise<FakeYtdlp> {
    const file = (lang: string, ext: string, kind = "") =>
      ({ ext, url: `https://www.youtube.com/api/timedtext?v=${VIDEO}&ei=ytdlp&caps=asr&xoaf=5&hl=en&exp=xpe${kind}&lang=${lang}&pot=subs-token-from-plugin&c=WEB&fmt=${ext}`, name: "English" });
    const document = {
      ...youtubeDocument(suite.platform.media, VIDEO),
      subtitles: { en: [file("en", "json3"), file("en", "srv3"), file("en", "vtt")] },
      automatic_captions: { "en-orig": [file("en", "json3", "&kind=asr"), file("en", "vtt", "&kind=asr")] },
    };
    fake = await writeFakeYtdlp({ type: "json", document });
    return fake;
  }

  /** The text file of `format`, and the caption and player requests it cost. */
  async function text(engine: Engine, format: "transcript" | "srt" | "vtt") {
    const captionsFrom = suite.platform.captionRequests().length;
    const playersFrom = suite.platform.youtubeRequests().length;
    const created = await engine.createDownload({ url: LINK, format, caller: format === "transcript" ? caller : PRO, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    const body = await res.text();
    const captions = suite.platform.captionRequests().slice(captionsFrom).filter((r) => r.videoId === VIDEO);
    const players = suite.platform.youtubeRequests().slice(playersFrom).filter((r) => r.videoId === VIDEO && r.kind === "player");
    return { body, captions, players: players.map((r) => r.client) };
  }

  it("with yt-dlp in YOUTUBE_CLIENTS: TXT, SRT and VTT come from yt-dlp's track, in one yt-dlp run and no refused caption request", async () => {
    suite.platform.setYouTubeModes(EVERY_CLIENT);
    const ytdlp = await ytdlpWithTracks();
    const engine = await engineWith(["VISIONOS", "ANDROID", "ytdlp"], ytdlp.path);

    // the resolve: both clients asked (neither had tokenless tracks), yt-dlp once, its track read once for the sizes
    const resolvedFrom = suite.platform.captionRequests().length;
    const { formats, subtitles } = await engine.resolve(LINK, caller);
    expect(formats.find((f) => f.id === "transcript")).toMatchObject({ available: true });
    expect(formats.find((f) => f.id === "mp4-720")).toMatchObject({ available: true });
    expect(subtitles).toEqual([expect.objectContaining({ language: "en", auto: false })]);
    expect(suite.platform.captionRequests().slice(resolvedFrom)).toEqual([{ videoId: VIDEO, refused: false }]);

    const txt = await text(engine, "transcript");
    expect(txt.body).toBe(`${MOCK_CAPTION_LINES.map((l) => l.text).join(" ")}\n`);
    const srt = await text(engine, "srt");
    const vtt = await text(engine, "vtt");
    MOCK_CAPTION_LINES.forEach((line, i) => {
      const [from, to] = [line.startMs, line.startMs + line.durMs];
      expect(srt.body).toContain(`${i + 1}\n${clock(from, ",")} --> ${clock(to, ",")}\n${line.text}\n`);
      // WebVTT escapes "&" (the text has no "<")
      expect(vtt.body).toContain(`${clock(from, ".")} --> ${clock(to, ".")}\n${line.text.replaceAll("&", "&amp;")}\n`);
    });
    expect(vtt.body.startsWith("WEBVTT")).toBe(true);
    // each download: its one caption request, yt-dlp's URL (never a refused one), no player request (the resolve is cached)
    for (const one of [txt, srt, vtt]) {
      expect(one.captions).toEqual([{ videoId: VIDEO, refused: false }]);
      expect(one.players).toEqual([]);
    }
    const runs = await ytdlp.runs();
    expect(runs.map((r) => r.link)).toEqual([LINK]);
  });

  it("the video itself still comes from the InnerTube client: yt-dlp gave only the tracks", async () => {
    suite.platform.setYouTubeModes(EVERY_CLIENT);
    const ytdlp = await ytdlpWithTracks();
    const engine = await engineWith(["VISIONOS", "ANDROID", "ytdlp"], ytdlp.path);
    const from = suite.platform.youtubeRequests().length;
    const created = await engine.createDownload({ url: LINK, format: "mp4-720", caller, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const seen = suite.platform.youtubeRequests().slice(from).filter((r) => r.videoId === VIDEO);
    expect(seen.filter((r) => r.kind === "player").map((r) => r.client)).toEqual(["VISIONOS", "ANDROID"]);
    expect([...new Set(seen.filter((r) => r.kind === "media").map((r) => r.client))]).toEqual(["VISIONOS"]);
  });

  it.each([
    ["no yt-dlp on this server", ["VISIONOS", "ANDROID", "ytdlp"], "off"],
    ["YOUTUBE_CLIENTS without ytdlp", ["VISIONOS", "ANDROID"], "fake"],
    ["yt-dlp failing too", ["VISIONOS", "ANDROID", "ytdlp"], "failing"],
  ])("%s: the transcript is not available in the catalogue's words, no gated URL is fetched, the video still downloads", async (_name, clients, which) => {
    suite.platform.setYouTubeModes(EVERY_CLIENT);
    const ytdlp =
      which === "fake" ? await ytdlpWithTracks() : which === "failing" ? await writeFakeYtdlp({ type: "error", line: `[youtube] ${VIDEO}: Sign in to confirm you're not a bot.` }) : undefined;
    const engine = await engineWith(clients, ytdlp?.path ?? "off");
    const from = suite.platform.captionRequests().length;
    const { formats, subtitles } = await engine.resolve(LINK, caller);
    expect(formats.find((f) => f.id === "transcript")).toMatchObject({ available: false });
    expect(formats.find((f) => f.id === "mp4-720")).toMatchObject({ available: true });
    expect(subtitles).toEqual([]);
    for (const format of ["transcript", "srt", "vtt"] as const) {
      const err = await engine.createDownload({ url: LINK, format, caller: PRO, ip: "127.0.0.1" }).then(() => undefined, (e: unknown) => e);
      expect(err).toMatchObject({ code: "format.unavailable", message: ERRORS["transcript.unavailable"].message });
    }
    expect(suite.platform.captionRequests().slice(from)).toEqual([]);
    expect((await ytdlp?.runs())?.length ?? 0).toBe(which === "failing" ? 1 : 0);
    const created = await engine.createDownload({ url: LINK, format: "mp4-720", caller, ip: "127.0.0.1" });
    const res = await fetch(created.downloadUrl);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  });
});
