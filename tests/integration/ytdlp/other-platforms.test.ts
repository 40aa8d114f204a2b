/**
 * Issue 12 beyond Facebook and Instagram: the platforms the spec plans (TikTok, Twitter/X, Vimeo,
 * Dailymotion, Twitch) resolve through yt-dlp when this server has it (a fake printing recorded-
 * shape documents), every link form common/links.ts recognises; without it the public API
 * answers honestly that this server cannot (never a network error). DASH-only and separate-track
 * documents download through our engine; YouTube links never reach yt-dlp.
 */
import { stat } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLink, SITE_NAMES, type SitePlatform } from "#common/links.ts";
import { createApiRouter } from "#server/api/router.ts";
import type { MockMediaSet } from "#tests/mocks/media.ts";
import { startMockPlatform, type MockPlatform } from "#tests/mocks/platform.ts";
import { dashOnlyDocument, otherPlatformDocuments, separateTracksDocument, type FakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { silentLogger } from "../engine-core/helpers.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { ANONYMOUS, BARE, downloadToFile, expectInputsPlusTags, useFakeYtdlpBench, type EngineWithTools } from "./helpers.ts";

/** the documents' media host, mapped to the local origin */
const CDN = "https://media.cdn.test";

/** Every link form of each planned platform that common/links.ts recognises. */
const LINK_FORMS: Record<Exclude<SitePlatform, "facebook" | "instagram">, string[]> = {
  tiktok: [
    "https://www.tiktok.com/@someone/video/7301234567890123456",
    "https://m.tiktok.com/v/7301234567890123456.html",
    "https://www.tiktok.com/t/ZTRabc123/",
    "https://vm.tiktok.com/ZMabc123/",
    "https://vt.tiktok.com/ZSabc123/",
  ],
  twitter: [
    "https://twitter.com/someone/status/1720000000000000000",
    "https://mobile.twitter.com/someone/status/1720000000000000001",
    "https://x.com/someone/status/1720000000000000002",
    "https://x.com/i/web/status/1720000000000000003",
  ],
  vimeo: [
    "https://vimeo.com/123456789",
    "https://player.vimeo.com/video/123456781",
    "https://vimeo.com/channels/staffpicks/123456782",
    "https://vimeo.com/groups/shortfilms/videos/123456783",
    "https://vimeo.com/showcase/1234/video/123456784",
  ],
  dailymotion: ["https://www.dailymotion.com/video/x8abcde", "https://www.dailymotion.com/embed/video/x8abcdf", "https://dai.ly/x8abcdg"],
  twitch: ["https://www.twitch.tv/videos/1987654321", "https://m.twitch.tv/videos/1987654322", "https://www.twitch.tv/somestreamer/clip/FunnyClipName-abc123", "https://clips.twitch.tv/FunnyClipName-abc124"],
};
const PLATFORMS = Object.keys(LINK_FORMS) as Array<keyof typeof LINK_FORMS>;

const bench = useFakeYtdlpBench(["*.cdn.test"]);
const engineWith = bench.engineWith;
let media: MockMediaSet;
beforeAll(() => {
  media = bench.media();
});

/** An Express host with the public API v1 in front of `engine`, as the server mounts it. */
async function apiFor(fixture: EngineWithTools): Promise<{ post(p: string, body: unknown): Promise<Response>; get(p: string): Promise<Response>; close(): Promise<void> }> {
  const app = express();
  app.use("/api/v1", createApiRouter({ engine: fixture.engine, logger: silentLogger }));
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return {
    post: (p, body) => fetch(base + p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    get: (p) => fetch(base + p, { redirect: "manual" }),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

describe("the link forms under test are the parser's", () => {
  it.each(PLATFORMS.flatMap((site) => LINK_FORMS[site].map((link) => [site, link] as const)))("%s: %s", (site, link) => {
    expect(parseLink(link)).toMatchObject({ ok: true, kind: "site", site });
  });
});

describe("with yt-dlp: the planned platforms resolve through it and download through our engine", () => {
  let fixture: EngineWithTools;
  let fake: FakeYtdlp;
  beforeAll(async () => {
    const started = await engineWith({ type: "by-link", documents: otherPlatformDocuments(CDN) });
    fixture = started.fixture;
    fake = started.fake!;
  });

  it.each(PLATFORMS)("%s: every link form is handed to yt-dlp (after `--`) and answered with its video", async (site) => {
    for (const link of LINK_FORMS[site]) {
      const { video, formats } = await fixture.engine.resolve(link, ANONYMOUS);
      expect(video.platform, link).toBe(site);
      expect(video.durationSeconds, link).toBe(6);
      expect(formats.filter((f) => f.available).map((f) => f.id), link).toContain("mp4-360");
      const runs = await fake.runs();
      const normalised = (parseLink(link) as { url: string }).url;
      expect(runs.at(-1)?.args.slice(-2), link).toEqual(["--", normalised]);
    }
  }, 60_000);

  it.each([
    ["tiktok", "https://www.tiktok.com/@someone/video/7301234567890123456", "mp4-360", 360, "Harbour birds #nature"],
    ["twitter", "https://x.com/someone/status/1720000000000000002", "mp4-720", 720, "Some One - A walk along the harbour"],
    ["vimeo", "https://vimeo.com/123456789", "mp4-720", 720, "Harbour at dusk"],
    ["dailymotion", "https://www.dailymotion.com/video/x8abcde", "mp4-720", 720, "Harbour news"],
    ["twitch", "https://clips.twitch.tv/FunnyClipName-abc124", "mp4-360", 360, "That moment"],
  ] as const)("%s: %s downloads as %s (ffprobe: H.264 at that height with AAC)", async (_site, link, format, height, title) => {
    const { video } = await fixture.engine.resolve(link, ANONYMOUS);
    expect(video.title).toBe(title);
    const got = await downloadToFile(fixture.engine, link, format);
    expect(got.status).toBe(200);
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height });
    expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
    expect(probe.duration).toBeCloseTo(media.durationSeconds, 0);
  }, 60_000);

  it("the public API resolves them too", async () => {
    const api = await apiFor(fixture);
    try {
      const res = await api.post("/resolve", { url: "https://vimeo.com/123456789" });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { video: { platform: string; title: string } }).video).toMatchObject({ platform: "vimeo", title: "Harbour at dusk" });
    } finally {
      await api.close();
    }
  });
});

describe("without yt-dlp: an honest answer through the public API, never a network error", () => {
  let api: Awaited<ReturnType<typeof apiFor>>;
  beforeAll(async () => {
    const { fixture } = await engineWith("none");
    expect(fixture.engine.ytdlp).toBeNull();
    api = await apiFor(fixture);
  });
  afterAll(() => api?.close());

  const links: Array<[string, string]> = [
    ["Facebook", "https://www.facebook.com/watch/?v=1234567890"],
    ["Facebook", "https://fb.watch/abcDEF123/"],
    ["Instagram", "https://www.instagram.com/reel/C1a2B3c4D5e/"],
    ...PLATFORMS.map((site): [string, string] => [SITE_NAMES[site], LINK_FORMS[site][0]!]),
  ];

  it.each(links)("%s: POST /resolve %s → 422 link.platform_unavailable naming the platform", async (name, url) => {
    const res = await api.post("/resolve", { url });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: "link.platform_unavailable", message: `This server cannot download ${name} videos: ${name} support is not installed here.` },
    });
  });

  it("POST /downloads and GET /download answer the same, not a network error", async () => {
    const url = "https://www.facebook.com/watch/?v=1234567890";
    for (const res of [await api.post("/downloads", { url, format: "mp4-720" }), await api.get(`/download?url=${encodeURIComponent(url)}&format=mp4-720`)]) {
      expect(res.status).toBe(422);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error).toMatchObject({ code: "link.platform_unavailable", message: expect.stringContaining("This server cannot download Facebook videos") });
      expect(body.error.message).not.toMatch(/Unable to connect|our servers/);
    }
  });
});

describe("formats with no progressive rendition map onto our catalogue and download through our engine", () => {
  it("a DASH-only document: the manifest's renditions, 720p remuxed with the separate audio, MP3 from the audio", async () => {
    const { fixture } = await engineWith({ type: "json", document: dashOnlyDocument(CDN) });
    const link = "https://vimeo.com/987654321";
    const { formats } = await fixture.engine.resolve(link, ANONYMOUS);
    const byId = Object.fromEntries(formats.map((f) => [f.id, f]));
    expect(byId["mp4-720"]).toMatchObject({ available: true });
    expect(byId["mp4-360"]).toMatchObject({ available: true });
    expect(byId["m4a"]).toMatchObject({ available: true });
    expect(byId["mp4-1080"]?.available).toBe(false);

    const mp4 = await downloadToFile(fixture.engine, link, "mp4-720");
    expect(mp4.status).toBe(200);
    const probe = await ffprobeFile(mp4.file);
    expect(probe.formatName).toContain("mp4");
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
    expect(probe.duration).toBeCloseTo(media.durationSeconds, 0);

    const mp3 = await downloadToFile(fixture.engine, link, "mp3-128");
    const tracks = (await ffprobeFile(mp3.file)).streams.filter((s) => s.disposition?.attached_pic !== 1);
    expect(tracks).toEqual([expect.objectContaining({ codec_type: "audio", codec_name: "mp3" })]);
  }, 90_000);

  it("separate video and audio files only: real sizes, each height remuxed with the audio track", async () => {
    const { fixture } = await engineWith({ type: "json", document: separateTracksDocument(CDN) });
    const link = "https://www.instagram.com/reel/C9z8Y7x6W5v/";
    const { formats } = await fixture.engine.resolve(link, ANONYMOUS);
    const [v360, v720, a128] = await Promise.all([media.video[360], media.video[720], media.audioM4a].map((f) => stat(f)));
    const byId = Object.fromEntries(formats.map((f) => [f.id, f]));
    expect(byId["mp4-720"]).toMatchObject({ available: true });
    expect(byId["mp4-360"]).toMatchObject({ available: true });
    expectInputsPlusTags(byId["mp4-720"]!.bytes, v720!.size + a128!.size);
    expectInputsPlusTags(byId["mp4-360"]!.bytes, v360!.size + a128!.size);
    // the M4A is sent as the CDN has it, its head carrying the tags: the size shown is exact
    expect(byId["m4a"]).toMatchObject({ available: true });
    expect(byId["m4a"]!.estimated).toBeFalsy();
    expect(byId["m4a"]!.bytes).toBeGreaterThan(a128!.size);
    expect((await downloadToFile(fixture.engine, link, "m4a")).bytes).toBe(byId["m4a"]!.bytes);
    expect((await downloadToFile(fixture.engine, link, "m4a", BARE)).bytes).toBe(a128!.size);

    for (const [format, height] of [["mp4-720", 720], ["mp4-360", 360]] as const) {
      const got = await downloadToFile(fixture.engine, link, format);
      expect(got.status).toBe(200);
      const probe = await ffprobeFile(got.file);
      expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height });
      expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
    }
  }, 90_000);
});

describe("YouTube links stay on our own adapter even when yt-dlp is present", () => {
  let platform: MockPlatform;
  let fixture: EngineWithTools;
  let fake: FakeYtdlp;
  beforeAll(async () => {
    platform = await startMockPlatform({ dataDir: path.join(os.tmpdir(), "vidfetch-test-platform") });
    // a yt-dlp that would answer any link with a video: a YouTube link reaching it would resolve
    const started = await engineWith({ type: "json", document: { ...separateTracksDocument(CDN), title: "Answered by yt-dlp" } }, { extraHostMap: platform.hostMap });
    fixture = started.fixture;
    fake = started.fake!;
    expect(fixture.engine.ytdlp?.path).toBe(fake.path);
  }, 120_000);
  afterAll(() => platform?.close());

  it("every YouTube link form resolves through the YouTube adapter, and yt-dlp is never started", async () => {
    for (const link of [
      "https://www.youtube.com/watch?v=vidfetchAll",
      "https://youtu.be/vidfetch720",
      "https://www.youtube.com/shorts/vidfetchCap",
      "https://m.youtube.com/watch?v=vidfetchAll&t=3",
      "https://music.youtube.com/watch?v=vidfetchAll",
      "https://www.youtube-nocookie.com/embed/vidfetchAll",
    ]) {
      const { video } = await fixture.engine.resolve(link, ANONYMOUS);
      expect(video.platform, link).toBe("youtube");
      expect(video.title, link).not.toBe("Answered by yt-dlp");
    }
    expect(await fake.runs()).toEqual([]);
  }, 60_000);

  it("a YouTube link our adapter refuses is refused, not handed to yt-dlp", async () => {
    await expect(fixture.engine.resolve("https://www.youtube.com/watch?v=vidfetchPrv", ANONYMOUS)).rejects.toMatchObject({ code: expect.stringMatching(/^video\./) });
    await expect(fixture.engine.resolve("https://www.youtube.com/watch?v=noSuchVid01", ANONYMOUS)).rejects.toMatchObject({ code: "video.not_found" });
    await expect(fixture.engine.resolve("https://www.youtube.com/channel/UC1234", ANONYMOUS)).rejects.toMatchObject({ code: "link.no_id" });
    expect(await fake.runs()).toEqual([]);
  }, 60_000);

  it("the same engine does start yt-dlp for a Vimeo link (the fake records runs)", async () => {
    const { video } = await fixture.engine.resolve("https://vimeo.com/123456789", ANONYMOUS);
    expect(video.title).toBe("Answered by yt-dlp");
    expect((await fake.runs()).map((r) => r.link)).toEqual(["https://vimeo.com/123456789"]);
  }, 60_000);
});
