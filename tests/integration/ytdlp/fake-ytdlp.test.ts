/**
 * The yt-dlp adapter with a fake `yt-dlp` (tests/mocks/ytdlp.ts): Facebook and Instagram
 * documents of the recorded shape mapped onto our formats and downloaded through our engine from
 * a local CDN; a hang (killed at the timeout), a crash, garbage output, a login wall, and a run
 * that tries to reach private addresses through the proxy. Needs no real yt-dlp.
 */
import fs from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { MockMediaSet } from "#tests/mocks/media.ts";
import { facebookDocument, instagramDocument, type FakeBehaviour } from "#tests/mocks/ytdlp.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { ANONYMOUS, downloadToFile, expectInputsPlusTags, useFakeYtdlpBench } from "./helpers.ts";

const FB_LINK = "https://www.facebook.com/watch/?v=1234567890";
const IG_LINK = "https://www.instagram.com/reel/C1a2B3c4D5e/";
/** the CDN hosts of the documents, mapped to the local origin like the real hosts in MOCKS mode */
const FB_CDN = "https://video.xx.fbcdn.test";
const IG_CDN = "https://scontent.cdninstagram.test";

const bench = useFakeYtdlpBench(["*.fbcdn.test", "*.cdninstagram.test"]);
const engineWith = bench.engineWith;
let media: MockMediaSet;
beforeAll(() => {
  media = bench.media();
});

/** signal 0 only asks whether the process exists (ESRCH when it is gone) */
const alive = (pid: number): boolean => {
  try {
    return process.kill(pid, 0);
  } catch {
    return false;
  }
};

describe("Facebook and Instagram through a fake yt-dlp", () => {
  it("runs yt-dlp for metadata only, through our proxy, the link after `--`", async () => {
    const { fixture, fake } = await engineWith({ type: "json", document: facebookDocument(FB_CDN) });
    expect(fixture.engine.ytdlp).toEqual({ path: fake.path, version: "2023.03.04" });
    await fixture.engine.resolve(FB_LINK, ANONYMOUS);
    const run = await fake.lastRun();
    expect(run?.args).toEqual(expect.arrayContaining(["--ignore-config", "--no-cache-dir", "--dump-single-json", "--no-download", "--no-playlist"]));
    expect(run?.args.slice(-2)).toEqual(["--", FB_LINK]);
    expect(run?.args[run.args.indexOf("--proxy") + 1]).toMatch(/^http:\/\/[\w-]+:x@127\.0\.0\.1:\d+$/);
  });

  it("maps a Facebook video: details, real sizes, DRM and storyboards left out, 720p remuxed from DASH tracks", async () => {
    const { fixture } = await engineWith({ type: "json", document: facebookDocument(FB_CDN) });
    const { video, formats } = await fixture.engine.resolve(FB_LINK, ANONYMOUS);
    expect(video).toMatchObject({
      id: "1234567890",
      title: "Sunset over the harbour",
      channelTitle: "Harbour Films",
      channelId: "100064",
      duration: "0:06",
      durationSeconds: 6,
      viewCount: "15.3K views",
      publishedAt: "Jan 1, 2026",
      thumbnail: `${FB_CDN}/thumbnail.jpg`,
      platform: "facebook",
      downloadUrl: FB_LINK,
      embedUrl: null,
    });
    expect(video.description).toMatch(/\S…$/); // cut between words, within 160 characters
    expect(Array.from(video.description).length).toBeLessThanOrEqual(160);
    const byId = Object.fromEntries(formats.map((f) => [f.id, f]));
    const [v720, a128, p360] = await Promise.all(["video-720.mp4", "audio-128.m4a", "progressive-360.mp4"].map((f) => fs.stat(`${media.dir}/${f}`)));
    // real sizes: the exact lengths the CDN reports (the catalogue pairs video with the best
    // separate audio track, so 360p is the progressive file's video plus the DASH audio), and the
    // few hundred bytes of the tags (title, artist, date, description; no cover in a video)
    expect(byId["mp4-720"]).toMatchObject({ available: true });
    expect(byId["mp4-360"]).toMatchObject({ available: true });
    expectInputsPlusTags(byId["mp4-720"]!.bytes, v720!.size + a128!.size);
    expectInputsPlusTags(byId["mp4-360"]!.bytes, p360!.size + a128!.size);
    // the 1080p format is DRM-protected: not offered
    expect(byId["mp4-1080"]?.available).toBe(false);
    expect(byId["thumbnail-hd"]?.available).toBe(true);

    const got = await downloadToFile(fixture.engine, FB_LINK, "mp4-720");
    expect(got.status).toBe(200);
    const probe = await ffprobeFile(got.file);
    expect(probe.streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 720 });
    expect(probe.streams.find((s) => s.codec_type === "audio")).toMatchObject({ codec_name: "aac" });
    expect(got.file).toMatch(/Sunset over the harbour.*\.mp4$/);
  }, 60_000);

  it("maps an Instagram reel (a playlist of one): the progressive file is probed for its codecs, MP3 from its audio", async () => {
    const { fixture } = await engineWith({ type: "json", document: instagramDocument(IG_CDN) });
    const { video, formats } = await fixture.engine.resolve(IG_LINK, ANONYMOUS);
    expect(video).toMatchObject({ title: "Video by someone", channelTitle: "Some One", likeCount: "2.0K", publishedAt: "Jan 15, 2026", platform: "instagram" });
    const available = formats.filter((f) => f.available).map((f) => f.id);
    expect(available).toEqual(expect.arrayContaining(["mp4-360", "mp4-720", "mp3-128", "m4a"]));

    const got = await downloadToFile(fixture.engine, IG_LINK, "mp4-360");
    expect(got.status).toBe(200);
    expect((await ffprobeFile(got.file)).streams.find((s) => s.codec_type === "video")).toMatchObject({ codec_name: "h264", height: 360 });
    const mp3 = await downloadToFile(fixture.engine, IG_LINK, "mp3-128");
    const probe = await ffprobeFile(mp3.file);
    // one MP3 track; the thumbnail rides along as cover art (an attached picture), not a video track
    expect(probe.streams.filter((s) => s.disposition?.attached_pic !== 1)).toEqual([expect.objectContaining({ codec_type: "audio", codec_name: "mp3" })]);
  }, 60_000);
});

describe("yt-dlp failing", () => {
  it("a run past the timeout is killed and reported as a timeout", async () => {
    const { fixture, fake } = await engineWith({ type: "hang" }, { timeoutMs: 1500 });
    const started = Date.now();
    await expect(fixture.engine.resolve(FB_LINK, ANONYMOUS)).rejects.toMatchObject({ code: "upstream.timeout" });
    expect(Date.now() - started).toBeLessThan(10_000);
    const run = await fake.lastRun();
    expect(run).not.toBeNull();
    await expect.poll(() => alive(run!.pid), { timeout: 5000 }).toBe(false);
  }, 20_000);

  it("a run still going when the engine closes is killed", async () => {
    const { fixture, fake } = await engineWith({ type: "hang" }, { timeoutMs: 60_000 });
    const pending = fixture.engine.resolve(FB_LINK, ANONYMOUS);
    pending.catch(() => undefined);
    await expect.poll(async () => (await fake.lastRun())?.pid ?? null, { timeout: 5000 }).not.toBeNull();
    const { pid } = (await fake.lastRun())!;
    expect(alive(pid)).toBe(true);
    await fixture.close();
    await expect(pending).rejects.toBeDefined();
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
  }, 20_000);

  // issue 27, finding 5: a run nobody waits for any more is killed, not left to its timeout
  it("a run whose every client has left is killed; one a client still waits for goes on", async () => {
    const { fixture, fake } = await engineWith({ type: "hang" }, { timeoutMs: 60_000 });
    const first = new AbortController();
    const second = new AbortController();
    const a = fixture.engine.resolve(FB_LINK, ANONYMOUS, { signal: first.signal, ip: "203.0.113.5" });
    const b = fixture.engine.resolve(FB_LINK, ANONYMOUS, { signal: second.signal, ip: "198.51.100.9" });
    await expect.poll(async () => (await fake.lastRun())?.pid ?? null, { timeout: 5000 }).not.toBeNull();
    const { pid } = (await fake.lastRun())!;
    first.abort();
    await expect(a).rejects.toMatchObject({ code: "download.failed" });
    await new Promise((r) => setTimeout(r, 300));
    expect(alive(pid)).toBe(true);
    second.abort();
    await expect(b).rejects.toMatchObject({ code: "download.failed" });
    await expect.poll(() => alive(pid), { timeout: 5000 }).toBe(false);
    expect(await fake.runs()).toHaveLength(1);
  }, 20_000);

  it("a crash is an error naming the platform, not our servers", async () => {
    const { fixture } = await engineWith({ type: "crash" });
    const err = await fixture.engine.resolve(FB_LINK, ANONYMOUS).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "upstream.api_error", status: 502 });
    expect((err as Error).message).toContain("Facebook");
    expect((err as Error).message).not.toContain("our servers");
  });

  it("garbage output is an upstream error, not a crash of ours", async () => {
    const { fixture } = await engineWith({ type: "garbage" });
    await expect(fixture.engine.resolve(IG_LINK, ANONYMOUS)).rejects.toMatchObject({ code: "upstream.api_error", message: expect.stringContaining("Instagram") });
  });

  it.each([
    ["[facebook] 1234567890: This video is only available for registered users. Use --cookies, --cookies-from-browser, --username and --password", "video.login_required"],
    ["[Instagram] C1a2B3c4D5e: Requested content is not available, rate-limit reached or login required. Use --cookies", "video.login_required"],
    ["[facebook] 1234567890: This video is DRM protected", "video.login_required"],
    ["The requested site is known to use DRM protection. It will NOT be supported.", "video.login_required"],
    ["[vimeo] 123456789: This video is private", "video.login_required"],
    ["[facebook] 1234567890: This video is private. Use --cookies to access it", "video.login_required"],
    ["[Instagram] C1a2B3c4D5e: Instagram sent an empty media response. Check if this post is accessible in your browser without being logged-in", "video.login_required"],
    ["[twitter] 1720000000000000000: NSFW tweet requires authentication. Use --cookies, --cookies-from-browser, --username and --password", "video.login_required"],
    ["[TikTok] 7301234567890123456: This post may not be comfortable for some audiences. Log in for access", "video.login_required"],
    ["[generic] page: Unable to download webpage: HTTP Error 404: Not Found", "video.not_found"],
    ["[facebook] 1234567890: Unable to download webpage: <urlopen error [Errno -3] Temporary failure in name resolution>", "upstream.fetch_failed"],
  ])("yt-dlp's %s → %s", async (line, code) => {
    const { fixture } = await engineWith({ type: "error", line });
    const err = await fixture.engine.resolve(FB_LINK, ANONYMOUS).catch((e: unknown) => e);
    expect(err).toMatchObject({ code });
    if (code === "video.login_required") expect((err as Error).message).toBe("This video needs a login on its platform, and we only download videos anyone can watch without one.");
    if (code === "upstream.fetch_failed") expect((err as Error).message).toMatch(/^Unable to connect to Facebook\./);
  });

  it.each<FakeBehaviour>([
    { type: "through-proxy", url: "http://169.254.169.254/latest/meta-data/" },
    { type: "through-proxy", url: "http://127.0.0.1:1/" },
    { type: "connect-through-proxy", authority: "10.0.0.1:443" },
    { type: "connect-through-proxy", authority: "[::1]:443" },
  ])("a run that tries to reach a private address through the proxy is refused: %o", async (behaviour) => {
    const { fixture } = await engineWith(behaviour);
    await expect(fixture.engine.resolve(FB_LINK, ANONYMOUS)).rejects.toMatchObject({ code: "link.blocked_address" });
  });

  it("a document whose every format is DRM-protected gets the login message, not 'no formats'", async () => {
    const doc = facebookDocument(FB_CDN) as { formats: Array<Record<string, unknown>> };
    const { fixture } = await engineWith({ type: "json", document: { ...doc, formats: doc.formats.map((f) => ({ ...f, has_drm: true })) } });
    await expect(fixture.engine.resolve(FB_LINK, ANONYMOUS)).rejects.toMatchObject({
      code: "video.login_required",
      status: 403,
      message: "This video needs a login on its platform, and we only download videos anyone can watch without one.",
    });
  });

  it("offers a Facebook video up to 720p, as the supported-sites card says, even when 1080p is served", async () => {
    const doc = facebookDocument(FB_CDN) as { formats: Array<Record<string, unknown>> };
    const hd = { format_id: "1234v-hd", url: `${FB_CDN}/video-1080.mp4?_nc_dash=1`, ext: "mp4", protocol: "https", vcodec: "avc1.640028", acodec: "none", width: 1920, height: 1080, tbr: 3000 };
    const { fixture } = await engineWith({ type: "json", document: { ...doc, formats: [...doc.formats, hd] } });
    const { formats } = await fixture.engine.resolve(FB_LINK, ANONYMOUS);
    const byId = Object.fromEntries(formats.map((f) => [f.id, f]));
    expect(byId["mp4-720"]?.available).toBe(true);
    expect(byId["mp4-1080"]?.available).toBe(false);
  });

  it("a document whose media sits on a private address is refused before any byte is fetched", async () => {
    const { fixture } = await engineWith({ type: "json", document: facebookDocument("http://127.0.0.1:9") });
    await expect(fixture.engine.resolve(FB_LINK, ANONYMOUS)).rejects.toMatchObject({ code: "link.blocked_address" });
  });
});
