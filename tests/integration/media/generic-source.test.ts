/**
 * The generic adapter against generated media served by a local origin (through the real
 * outbound fetch), and against the recorded manifests in ../shared/fixtures/manifests.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineConfig } from "#engine/config.ts";
import { listFormats, planFormat } from "#engine/formats.ts";
import { locateMediaTools, type MediaTools } from "#engine/media/ffmpeg.ts";
import { genericSource, titleFromUrl } from "#engine/sources/generic/index.ts";
import { resolveDash } from "#engine/sources/generic/dash.ts";
import { mediaPlaylist, parseM3u8, resolveHlsMaster } from "#engine/sources/generic/hls.ts";
import type { SourceContext } from "#engine/sources/types.ts";
import { createOutboundFetch } from "#engine/outbound/outbound-fetch.ts";
import type { ResolvedMedia, UpstreamStream } from "#engine/types.ts";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { MEDIA_CACHE_DIR } from "./helpers.ts";
import { startMediaOrigin, type MediaOrigin } from "./origin.ts";
import { FIXTURES_ROOT } from "#tests/mocks/youtube.ts";

const execFileAsync = promisify(execFile);
const logger = pino({ level: "silent" });
let media: MockMediaSet;
let tools: MediaTools;
let origin: MediaOrigin;
let ctx: SourceContext;

beforeAll(async () => {
  [media, tools] = await Promise.all([ensureMockMedia(MEDIA_CACHE_DIR), locateMediaTools({})]);
  origin = await startMediaOrigin(media.dir);
  // a non-media file to point at
  await fs.writeFile(path.join(media.dir, "page.html"), "<!doctype html><html><body>hello</body></html>").catch(() => undefined);
  ctx = {
    fetch: createOutboundFetch({ allowPrivate: true, timeoutMs: 10_000, logger, retries: 0 }),
    config: {} as EngineConfig,
    logger,
    media: tools,
  };
});
afterAll(async () => {
  await origin?.close();
});

const urlOf = (file: string) => `${origin.origin}/${path.relative(media.dir, file).split(path.sep).join("/")}`;

async function resolve(url: string): Promise<ResolvedMedia> {
  const r = await genericSource.resolve({ kind: "generic", url }, ctx);
  if (!r.ok) throw new Error(`resolve failed: ${r.code} ${r.detail ?? ""}`);
  return r.media;
}

const segs = (s: UpstreamStream) => (s.transport.type === "segments" ? s.transport : null);

describe("generic source: direct files", () => {
  it("probes a progressive MP4 for codecs, size and duration and names it from the file", async () => {
    const m = await resolve(urlOf(media.progressive));
    expect(m.platform).toBe("generic");
    expect(m.streams).toHaveLength(1);
    expect(m.streams[0]).toMatchObject({
      kind: "progressive",
      container: "mp4",
      vcodec: "h264",
      acodec: "aac",
      width: 640,
      height: 360,
      contentLength: (await fs.stat(media.progressive)).size,
      transport: { type: "direct" },
    });
    expect(m.details).toMatchObject({ title: "progressive-360", duration: "0:06", platform: "generic", embedUrl: null, subscriberCount: "Unknown" });
    expect(m.details.durationSeconds).toBeCloseTo(6, 0);
    expect(m.details.id).toMatch(/^[\w-]{11}$/);
    expect(m.details.publishedAt).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
  });

  it("offers exact passthrough for the progressive MP4 at its height and a transcode for MP3", async () => {
    const m = await resolve(urlOf(media.progressive));
    const f = Object.fromEntries(listFormats(m, { kind: "anonymous" }).map((x) => [x.id, x]));
    const bare = listFormats(m, { kind: "anonymous" }, { tags: false }).find((x) => x.id === "mp4-360");
    const size = (await fs.stat(media.progressive)).size;
    // tags off, the file as it is; tags on, its head carries them and the size counts them
    expect(bare).toMatchObject({ available: true, bytes: size });
    expect(f["mp4-360"]).toMatchObject({ available: true });
    expect(f["mp4-360"]!.estimated).toBeFalsy();
    expect(f["mp4-360"]!.bytes).toBeGreaterThan(size);
    expect(planFormat(m, "mp4-360").op).toBe("passthrough");
    expect(f["mp4-720"]).toMatchObject({ available: false });
    expect(f["mp3-320"]).toMatchObject({ available: true, estimated: true });
    expect(f["thumbnail-hd"]).toMatchObject({ available: false });
    expect(f.transcript).toMatchObject({ available: false });
  });

  it("recognises audio-only and video-only files", async () => {
    const audio = await resolve(urlOf(media.audioWebm));
    expect(audio.streams[0]).toMatchObject({ kind: "audio", container: "webm", acodec: "opus" });
    const video = await resolve(urlOf(media.webmVideo));
    expect(video.streams[0]).toMatchObject({ kind: "video", container: "webm", vcodec: "vp9", height: 720 });
  });

  it("describes an MP4 whose index sits at the end, and offers it only as it is", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-moov-end-"));
    const file = path.join(dir, "moov-at-end.mp4");
    // ~3.6 MB, so the moov lies beyond the first megabyte the adapter reads
    await execFileAsync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-stream_loop", "9", "-i", media.progressive, "-c", "copy", "-movflags", "-faststart", file]);
    const second = await startMediaOrigin(dir);
    try {
      const m = await resolve(`${second.origin}/moov-at-end.mp4`);
      expect(m.streams[0]).toMatchObject({ kind: "progressive", vcodec: "h264", acodec: "aac", height: 360, pipeSafe: false, contentLength: (await fs.stat(file)).size });
      expect(m.details.durationSeconds).toBeGreaterThan(59);
      expect(m.details.durationSeconds).toBeLessThan(62);
      const f = Object.fromEntries(listFormats(m, { kind: "anonymous" }).map((x) => [x.id, x]));
      expect(f["mp4-360"]).toMatchObject({ available: true });
      expect(planFormat(m, "mp4-360").op).toBe("passthrough");
      expect(f["mp3-128"]).toMatchObject({ available: false, note: "This file can only be downloaded in its original format" });
    } finally {
      await second.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("fails clearly for a missing file and for a web page", async () => {
    await expect(genericSource.resolve({ kind: "generic", url: `${origin.origin}/nope.mp4` }, ctx)).resolves.toMatchObject({ ok: false, code: "video.not_found" });
    await expect(genericSource.resolve({ kind: "generic", url: `${origin.origin}/page.html` }, ctx)).resolves.toMatchObject({ ok: false, code: "link.unsupported" });
  });
});

describe("generic source: HLS", () => {
  it("reads a master playlist: muxed TS, fMP4 with EXT-X-MAP, and video with a separate audio group", async () => {
    const m = await resolve(urlOf(media.manifests.hlsMaster));
    expect(m.details.title).toBe("hls");
    expect(m.details.durationSeconds).toBeCloseTo(6, 0);
    const byHeight = (h: number) => m.streams.find((s) => s.height === h)!;
    expect(byHeight(360)).toMatchObject({ kind: "progressive", container: "ts", vcodec: "h264", acodec: "aac" });
    expect(segs(byHeight(360))!.segments).toHaveLength(3);
    expect(byHeight(480)).toMatchObject({ kind: "progressive", container: "mp4" });
    expect(segs(byHeight(480))!.init!.url).toBe(`${origin.origin}/hls/fmp4-480/init.mp4`);
    expect(byHeight(720)).toMatchObject({ kind: "video", vcodec: "h264", acodec: undefined });
    const audio = m.streams.filter((s) => s.kind === "audio");
    expect(audio).toHaveLength(1);
    expect(audio[0]).toMatchObject({ language: "en", acodec: "aac" });
    expect(segs(audio[0]!)!.segments[0]!.url).toBe(`${origin.origin}/hls/audio/seg-000.ts`);

    // mp4-720 pairs the video-only variant with the audio rendition
    const plan = planFormat(m, "mp4-720");
    expect(plan.op === "remux" && plan.inputs.map((s) => s.kind)).toEqual(["video", "audio"]);
    expect(planFormat(m, "mp4-360")).toMatchObject({ op: "remux", container: "mp4" });
  });

  it("reads a media playlist alone, probing the first segment for codecs", async () => {
    const m = await resolve(urlOf(media.manifests.hlsTsMuxed));
    expect(m.streams).toHaveLength(1);
    expect(m.streams[0]).toMatchObject({ kind: "progressive", container: "ts", vcodec: "h264", acodec: "aac", width: 640, height: 360 });
    expect(m.details.title).toBe("ts-360");
  });

  it("keeps byte ranges of a single-file playlist and knows its exact size", async () => {
    const m = await resolve(urlOf(media.manifests.hlsByteRange));
    const t = segs(m.streams[0]!)!;
    expect(t.segments[0]!.range).toEqual({ start: 0, end: expect.any(Number) });
    expect(t.segments[1]!.range!.start).toBe(t.segments[0]!.range!.end + 1);
    const size = (await fs.stat(path.join(media.hls, "single", "media.ts"))).size;
    expect(t.segments.at(-1)!.range!.end).toBe(size - 1);
    const f = listFormats(m, { kind: "anonymous" }, { tags: false }).find((x) => x.id === "mp4-360")!;
    expect(f).toMatchObject({ available: true, bytes: size });
  });

  it("refuses a live playlist", async () => {
    const live = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\nseg-000.ts\n";
    await fs.writeFile(path.join(media.hls, "ts-360", "live.m3u8"), live);
    await expect(genericSource.resolve({ kind: "generic", url: `${origin.origin}/hls/ts-360/live.m3u8` }, ctx)).resolves.toMatchObject({ ok: false, code: "video.live" });
  });
});

describe("generic source: DASH", () => {
  it.each([
    ["SegmentTemplate $Number$", () => media.manifests.dashTemplate, "num-0-001.m4s"],
    ["SegmentTemplate $Time$ + SegmentTimeline", () => media.manifests.dashTimeline, "time-0-0.m4s"],
    ["SegmentList", () => media.manifests.dashList, "list-0-001.m4s"],
  ])("%s: video representations plus the audio set", async (_name, manifest, firstSegment) => {
    const m = await resolve(urlOf(manifest()));
    expect(m.details.durationSeconds).toBe(6);
    const v720 = m.streams.find((s) => s.height === 720)!;
    expect(v720).toMatchObject({ kind: "video", vcodec: "h264", container: "mp4" });
    expect(segs(v720)!.segments[0]!.url).toBe(`${origin.origin}/dash/${firstSegment}`);
    expect(segs(v720)!.init).toBeDefined();
    expect(m.streams.find((s) => s.height === 360)).toBeDefined();
    expect(m.streams.filter((s) => s.kind === "audio")).toEqual([expect.objectContaining({ acodec: "aac", container: "m4a" })]);
    expect(planFormat(m, "mp4-720").op).toBe("remux");
    expect(planFormat(m, "m4a")).toMatchObject({ op: "remux", container: "m4a" });
  });

  it("SegmentList with byte ranges into one file per representation", async () => {
    const m = await resolve(urlOf(media.manifests.dashByteRanges));
    const v = m.streams.find((s) => s.kind === "video")!;
    expect(segs(v)!.init).toEqual({ url: `${origin.origin}/dash/ranges/stream-0.mp4`, range: { start: 0, end: expect.any(Number) } });
    expect(segs(v)!.segments.every((s) => s.range)).toBe(true);
  });

  it("SegmentBase: the representation's file, read directly", async () => {
    const m = await resolve(urlOf(media.manifests.dashSegmentBase));
    expect(m.streams.find((s) => s.kind === "video")).toMatchObject({ url: `${origin.origin}/dash/single/video.mp4`, transport: { type: "direct" }, height: 720 });
    expect(m.streams.find((s) => s.kind === "audio")).toMatchObject({ url: `${origin.origin}/dash/single/audio.m4a`, language: "en" });
    expect(planFormat(m, "m4a")).toMatchObject({ op: "passthrough" });
  });
});

describe("titles from links", () => {
  it("uses the file name, or the folder/host for generic manifest names", () => {
    expect(titleFromUrl("https://cdn.example/videos/My%20Trip.final.mp4?sig=1")).toBe("My Trip.final");
    expect(titleFromUrl("https://cdn.example/shows/episode-4/master.m3u8")).toBe("episode-4");
    expect(titleFromUrl("https://cdn.example/index.m3u8")).toBe("cdn.example");
  });
});

const FIXTURES = path.join(FIXTURES_ROOT, "manifests");
const hasFixtures = existsSync(FIXTURES);
if (!hasFixtures) console.log(`skipping recorded manifest tests: ${FIXTURES} not found`);

describe.skipIf(!hasFixtures)("recorded manifests (../shared/fixtures/manifests)", () => {
  const read = (p: string) => fs.readFile(path.join(FIXTURES, p), "utf8");
  /** variant playlists are not recorded: every one is answered with the same short VOD playlist */
  const stubCtx = (): SourceContext & { fetched: string[] } => {
    const fetched: string[] = [];
    return {
      fetched,
      fetch: async (url) => {
        fetched.push(String(url));
        return new Response("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nseg-1.ts\n#EXTINF:4,\nseg-2.ts\n#EXT-X-ENDLIST\n", { status: 200 });
      },
      config: {} as EngineConfig,
      logger,
      media: tools,
    };
  };

  it("Apple bipbop master: muxed default audio keeps variants progressive; iframe and subtitle playlists are skipped", async () => {
    const c = stubCtx();
    const base = "https://devstreaming.example/bipbop/bipbop_16x9_variant.m3u8";
    const r = await resolveHlsMaster(c, parseM3u8(await read("ytdlp-testdata/m3u8_bipbop_16x9.m3u8")), base);
    const variants = r.streams.filter((s) => s.kind !== "audio");
    expect(variants.length).toBeGreaterThanOrEqual(4);
    expect(variants.every((s) => s.kind === "progressive" && s.vcodec === "h264" && s.acodec === "aac")).toBe(true);
    expect(variants.map((s) => s.height)).toEqual(expect.arrayContaining([234, 360, 540, 720]));
    // the alternate rendition with its own playlist, and the audio-only variant (CODECS="mp4a.40.2")
    expect(r.streams.filter((s) => s.kind === "audio").map((s) => s.url)).toEqual([
      "https://devstreaming.example/bipbop/alternate_audio_aac/prog_index.m3u8",
      "https://devstreaming.example/bipbop/gear0/prog_index.m3u8",
    ]);
    expect(c.fetched.some((u) => u.includes("iframe") || u.includes("subtitles"))).toBe(false);
  });

  it("YouTube HLS index: VP9 and H.264 variants with separate audio groups", async () => {
    const c = stubCtx();
    const r = await resolveHlsMaster(c, parseM3u8(await read("youtube-hls/kkdai_youtube_index.m3u8")), "https://manifest.googlevideo.com/api/manifest/hls_variant/x");
    const video = r.streams.filter((s) => s.kind === "video");
    expect(video.length).toBeGreaterThan(3);
    expect(new Set(video.map((s) => s.vcodec))).toEqual(new Set(["h264", "vp9"]));
    expect(r.streams.filter((s) => s.kind === "audio").length).toBeGreaterThanOrEqual(2);
    expect(video.every((s) => s.url.startsWith("https://manifest.googlevideo.com/"))).toBe(true);
  });

  it("Apple advanced fMP4 example: EXT-X-MAP init sections", async () => {
    const c = stubCtx();
    const r = await resolveHlsMaster(c, parseM3u8(await read("ytdlp-testdata/m3u8_img_bipbop_adv_example_fmp4.m3u8")), "https://devstreaming.example/adv/master.m3u8");
    expect(r.streams.length).toBeGreaterThan(4);
    expect(r.streams.some((s) => s.vcodec === "h264")).toBe(true);
  });

  it("Shaka media playlist: fMP4 segments with an init map", async () => {
    const p = mediaPlaylist(parseM3u8(await read("shaka-cbcs-clear/video.m3u8")), "https://cdn.example/shaka/video.m3u8");
    expect(p).toMatchObject({ container: "mp4", init: { url: "https://cdn.example/shaka/init.mp4" } });
    expect(p.segments[0]).toMatchObject({ url: "https://cdn.example/shaka/segment-1.m4s", durationSeconds: 1 });
  });

  it.each(["shaka-cbcs-clear/manifest.mpd", "ytdlp-testdata/mpd_float_duration.mpd", "ytdlp-testdata/mpd_supplemental_codecs.mpd", "ytdlp-testdata/mpd_unfragmented.mpd", "ytdlp-testdata/mpd_subtitles.mpd"])(
    "%s parses into streams with absolute URLs and a duration",
    async (file) => {
      const r = resolveDash(await read(file), `https://cdn.example/${file}`);
      expect(r.streams.length).toBeGreaterThan(0);
      expect(r.durationSeconds).toBeGreaterThan(0);
      for (const s of r.streams) {
        expect(s.url).toMatch(/^https?:\/\//);
        if (s.transport.type === "segments") expect(s.transport.segments.every((seg) => /^https?:\/\//.test(seg.url))).toBe(true);
      }
    },
  );

  it("unfragmented MPD (SegmentBase) becomes direct file streams", async () => {
    const r = resolveDash(await read("ytdlp-testdata/mpd_unfragmented.mpd"), "https://cdn.example/unfragmented.mpd");
    expect(r.streams.every((s) => s.transport.type === "direct")).toBe(true);
  });
});

describe("generic source: HLS sizes before download", () => {
  it("gives every available row of an HLS master a size from the variants' bitrates × duration, marked estimated", async () => {
    const m = await resolve(urlOf(media.manifests.hlsMaster));
    const rows = listFormats(m, { kind: "anonymous" }).filter((r) => r.available && !["thumbnail-hd", "transcript"].includes(r.id));
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect.soft(row.bytes, row.id).toBeGreaterThan(0);
      expect.soft(row.estimated, row.id).toBe(true);
      expect.soft(row.size, row.id).toMatch(/^~\d/);
    }
    // the 720p variant's BANDWIDTH already counts its audio rendition (RFC 8216 §4.3.4.2); the
    // rendition's own rate is unstated, so it adds a nominal 128 kbps: an estimate, near the mark
    const v720 = m.streams.find((s) => s.height === 720)!;
    const row720 = rows.find((r) => r.id === "mp4-720")!;
    const fromBandwidth = (v720.bitrate! * m.details.durationSeconds) / 8;
    expect(row720.bytes).toBeGreaterThanOrEqual(fromBandwidth);
    expect(row720.bytes).toBeLessThan(fromBandwidth * 1.3);
  });
});
