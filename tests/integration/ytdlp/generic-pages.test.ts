/**
 * yt-dlp's generic extractor against local web pages (issue 12 §4): a page with og:video, one
 * with a <video> tag, one with JSON-LD VideoObject and one with an HLS player, served on
 * loopback behind a mapped host. yt-dlp only describes each page, through our forwarding proxy;
 * the engine then resolves formats and downloads through its own fetch, verified with ffprobe.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureMockMedia, type MockMediaSet } from "#tests/mocks/media.ts";
import { startServer, type TestServer } from "../engine-core/helpers.ts";
import { ffprobeFile, MEDIA_CACHE_DIR } from "../media/helpers.ts";
import { startMediaOrigin, type MediaOrigin } from "../media/origin.ts";
import { ANONYMOUS, BARE, downloadToFile, startEngine, systemYtdlp, type EngineWithTools } from "./helpers.ts";

const ytdlp = await systemYtdlp("the generic-extractor tests");
const HOST = "videos.example.test";
const site = (p: string) => `http://${HOST}/${p}`;

let media: MockMediaSet;
let origin: MediaOrigin;
let fixture: EngineWithTools;
let rel: (file: string) => string;
let privateHits = 0;
let privateServer: TestServer;
let PRIVATE_VIDEO = "";

beforeAll(async () => {
  if (!ytdlp) return;
  media = await ensureMockMedia(MEDIA_CACHE_DIR);
  privateServer = await startServer((_req, res) => {
    privateHits++;
    res.writeHead(200, { "content-type": "video/mp4" }).end("not really a video");
  });
  PRIVATE_VIDEO = `${privateServer.origin}/secret.mp4`;
  rel = (file) => path.relative(media.dir, file).split(path.sep).join("/");
  const pages = path.join(media.dir, "ytdlp-pages");
  await fs.mkdir(pages, { recursive: true });
  const page = (head: string, body = "") => `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;
  await Promise.all([
    fs.writeFile(
      path.join(pages, "og.html"),
      page(`<title>OG page</title><meta property="og:title" content="Harbour at dawn"><meta property="og:video" content="${site(rel(media.progressive))}"><meta property="og:video:type" content="video/mp4">`),
    ),
    fs.writeFile(path.join(pages, "video-tag.html"), page("<title>Video tag clip</title>", `<video controls src="/${rel(media.progressive)}"></video>`)),
    fs.writeFile(
      path.join(pages, "json-ld.html"),
      page(
        `<title>JSON-LD page</title><script type="application/ld+json">${JSON.stringify({
          "@context": "https://schema.org",
          "@type": "VideoObject",
          name: "Structured clip",
          description: "A VideoObject described in JSON-LD",
          contentUrl: site(rel(media.progressive)),
          thumbnailUrl: site(rel(media.thumbnail)),
          uploadDate: "2026-01-02T10:00:00Z",
          duration: "PT6S",
        })}</script>`,
      ),
    ),
    // the page is public (mapped), the video it names sits on loopback: only yt-dlp would go there
    fs.writeFile(path.join(pages, "private.html"), page(`<title>Private</title><meta property="og:video" content="${PRIVATE_VIDEO}">`)),
    fs.writeFile(
      path.join(pages, "hls.html"),
      page("<title>HLS player</title>", `<video controls><source src="${site(rel(media.manifests.hlsMaster))}" type="application/x-mpegURL"></video>`),
    ),
  ]);
  origin = await startMediaOrigin(media.dir);
  // the page host is mapped to loopback (operator-trusted), exactly like the other engine tests
  fixture = await startEngine({ hostMap: `${HOST}=${origin.origin}` });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
  await origin?.close();
  await privateServer?.close();
});

describe.skipIf(!ytdlp)("yt-dlp's generic extractor on local pages, downloaded through our engine", () => {
  it("has located yt-dlp with its version", () => {
    expect(fixture.engine.ytdlp).toMatchObject({ path: ytdlp, version: expect.stringMatching(/^\d{4}\.\d{2}\.\d{2}/) });
  });

  it.each([
    ["og:video", "og.html"],
    ["a <video> tag", "video-tag.html"],
    ["JSON-LD VideoObject", "json-ld.html"],
  ])("a page with %s resolves to the MP4 at its exact size (tags included) and, tags off, downloads it byte for byte", async (_what, page) => {
    const url = site(`ytdlp-pages/${page}`);
    const { video, formats } = await fixture.engine.resolve(url, ANONYMOUS);
    expect(video.platform).toBe("generic");
    expect(video.durationSeconds).toBeCloseTo(media.durationSeconds, 0);
    const mp4 = formats.find((f) => f.id === "mp4-360");
    const size = (await fs.stat(media.progressive)).size;
    expect(mp4).toMatchObject({ available: true });
    expect(mp4?.estimated).toBeFalsy();
    // the size shown counts the tags written into the file's head, and is what the download sends
    expect(mp4!.bytes).toBeGreaterThan(size);
    const tagged = await downloadToFile(fixture.engine, url, "mp4-360");
    expect(tagged.bytes).toBe(mp4!.bytes);

    const got = await downloadToFile(fixture.engine, url, "mp4-360", BARE);
    expect(got.status).toBe(200);
    expect(got.bytes).toBe(size);
    expect((await fs.readFile(got.file)).equals(await fs.readFile(media.progressive))).toBe(true);
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.map((s) => s.codec_type).sort()).toEqual(["audio", "video"]);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
  }, 60_000);

  it("takes the title and date from the page's metadata", async () => {
    const og = await fixture.engine.resolve(site("ytdlp-pages/og.html"), ANONYMOUS);
    expect(og.video.title).toBe("Harbour at dawn");
    const ld = await fixture.engine.resolve(site("ytdlp-pages/json-ld.html"), ANONYMOUS);
    expect(ld.video).toMatchObject({ title: "Structured clip", publishedAt: "Jan 2, 2026" });
    expect(ld.video.thumbnail).toBe(site(rel(media.thumbnail)));
  }, 60_000);

  it("a page with an HLS player resolves the playlist's variants and remuxes 720p with its separate audio", async () => {
    const url = site("ytdlp-pages/hls.html");
    const { formats } = await fixture.engine.resolve(url, ANONYMOUS);
    const available = formats.filter((f) => f.available).map((f) => f.id);
    expect(available).toEqual(expect.arrayContaining(["mp4-360", "mp4-480", "mp4-720", "m4a"]));

    const got = await downloadToFile(fixture.engine, url, "mp4-720");
    expect(got.status).toBe(200);
    const probe = await ffprobeFile(got.file);
    expect(probe.formatName).toContain("mp4");
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
    expect(probe.duration).toBeCloseTo(media.durationSeconds, 0);
  }, 90_000);

  it("a page that leads to a private address is refused, and nothing there is fetched", async () => {
    await expect(fixture.engine.resolve(site("ytdlp-pages/private.html"), ANONYMOUS)).rejects.toMatchObject({ code: "link.blocked_address" });
    expect(privateHits).toBe(0);
  }, 60_000);
});
