/**
 * A fake `yt-dlp` executable for tests (one mock file per third party): a small Node script that
 * answers `--version`, records the arguments it was given, and then behaves as told: prints a
 * recorded-shape `-J` document (Facebook, Instagram), hangs, crashes, prints garbage, fails like
 * yt-dlp does for a login wall, or tries to reach a private address through the `--proxy` it got.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export type FakeBehaviour =
  | { type: "json"; document: unknown }
  /** the document whose key the link contains; other links fail like yt-dlp's "Unsupported URL" */
  | { type: "by-link"; documents: Record<string, unknown> }
  | { type: "hang" }
  | { type: "crash" }
  | { type: "garbage" }
  | { type: "error"; line: string }
  | { type: "through-proxy"; url: string }
  | { type: "connect-through-proxy"; authority: string };

export interface FakeYtdlp {
  path: string;
  /** what the last run received: its arguments and process id */
  lastRun(): Promise<{ args: string[]; pid: number } | null>;
  /** every metadata run so far (not `--version`), oldest first: the link each was given */
  runs(): Promise<Array<{ args: string[]; link: string }>>;
}

const PRELUDE = `#!/usr/bin/env node
const fs = require("fs");
const http = require("http");
const args = process.argv.slice(2);
// a stand-in that reaches nothing but the proxy it is given, as the network jail makes yt-dlp do
if (process.env.VIDFETCH_JAIL_REPORT) process.stderr.write("vidfetch-network-jail: active\\n");
if (args.includes("--version")) { process.stdout.write(VERSION + "\\n"); process.exit(0); }
if (args.includes("--list-extractors")) { process.stdout.write(EXTRACTORS); process.exit(0); }
fs.writeFileSync(RUN_FILE, JSON.stringify({ args, pid: process.pid }));
fs.appendFileSync(RUNS_FILE, JSON.stringify({ args, link: args[args.length - 1] }) + "\\n");
const proxy = new URL(args[args.indexOf("--proxy") + 1]);
const proxyAuth = "Basic " + Buffer.from(decodeURIComponent(proxy.username) + ":" + decodeURIComponent(proxy.password)).toString("base64");
function fail(line) { process.stderr.write("ERROR: " + line + "\\n"); process.exit(1); }
`;

function body(b: FakeBehaviour): string {
  switch (b.type) {
    case "json":
      return `process.stdout.write(${JSON.stringify(JSON.stringify(b.document))});`;
    case "by-link":
      return `const docs = ${JSON.stringify(b.documents)};
const link = args[args.length - 1];
const key = Object.keys(docs).find((k) => link.includes(k));
if (!key) fail("Unsupported URL: " + link);
process.stdout.write(JSON.stringify(docs[key]));`;
    case "hang":
      return "setInterval(() => {}, 1000);";
    case "crash":
      return `process.stderr.write("Traceback (most recent call last):\\n  File \\"yt_dlp/__main__.py\\"\\nKeyError: 'video'\\n"); process.exit(1);`;
    case "garbage":
      return `process.stdout.write("<html>this is not JSON</html>");`;
    case "error":
      return `fail(${JSON.stringify(b.line)});`;
    case "through-proxy":
      return `http.get({ host: proxy.hostname, port: proxy.port, path: ${JSON.stringify(b.url)}, headers: { "proxy-authorization": proxyAuth } }, (res) => {
  res.resume();
  if (res.statusCode !== 200) fail("[generic] page: Unable to download webpage: HTTP Error " + res.statusCode + ": Forbidden");
  else fail("[generic] page: the private page was served");
}).on("error", (e) => fail("Unable to download webpage: " + e.message));`;
    case "connect-through-proxy":
      return `http.request({ host: proxy.hostname, port: proxy.port, method: "CONNECT", path: ${JSON.stringify(b.authority)}, headers: { "proxy-authorization": proxyAuth } })
  .on("connect", (res, socket) => { socket.destroy(); fail("Unable to download webpage: Tunnel connection failed: " + res.statusCode); })
  .on("error", (e) => fail("Unable to download webpage: " + e.message)).end();`;
  }
}

/** `version`: what `--version` says (default 2023.03.04); `extractors`: what `--list-extractors` prints */
export async function writeFakeYtdlp(behaviour: FakeBehaviour, opts: { version?: string; extractors?: string } = {}): Promise<FakeYtdlp> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-fake-ytdlp-"));
  const runFile = path.join(dir, "last-run.json");
  const runsFile = path.join(dir, "runs.jsonl");
  const file = path.join(dir, "yt-dlp");
  const prelude = PRELUDE.replace("RUN_FILE", JSON.stringify(runFile))
    .replace("RUNS_FILE", JSON.stringify(runsFile))
    .replace("VERSION", JSON.stringify(opts.version ?? "2023.03.04"))
    .replace("EXTRACTORS", JSON.stringify(opts.extractors ?? "youtube\nyoutube:tab\nfacebook\nInstagram\nvimeo\n"));
  await fs.writeFile(file, prelude + body(behaviour) + "\n", { mode: 0o755 });
  return {
    path: file,
    async lastRun() {
      try {
        return JSON.parse(await fs.readFile(runFile, "utf8")) as { args: string[]; pid: number };
      } catch {
        return null;
      }
    },
    async runs() {
      const text = await fs.readFile(runsFile, "utf8").catch((err: NodeJS.ErrnoException) => {
        if (err.code === "ENOENT") return "";
        throw err;
      });
      return text
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { args: string[]; link: string });
    },
  };
}

/**
 * For the browser journeys (scripts/e2e-server.mjs): a Facebook video, an Instagram reel and a
 * video on each planned platform, whose media sit on the mock platform's generic host (a
 * progressive MP4 and an HLS master).
 */
export function mockPlatformDocuments(host: string): Record<string, unknown> {
  const progressive = { format_id: "sd", url: `https://${host}/files/sample-360p.mp4`, ext: "mp4", protocol: "https" };
  const hls = { format_id: "hls-720", url: `https://${host}/hls/720/index.m3u8`, manifest_url: `https://${host}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8_native", height: 720 };
  // the planned platforms (TikTok, Twitter/X, Vimeo, Dailymotion, Twitch) that yt-dlp also reads
  const planned = (name: string, id: string) => ({ id, title: `Harbour walk (${name})`, uploader: "Harbour Films", duration: 6, view_count: 321, timestamp: 1767225600, formats: [progressive, hls] });
  return {
    "facebook.com/watch": { id: "1234567890", title: "Harbour walk (Facebook)", uploader: "Harbour Films", duration: 6, view_count: 15321, timestamp: 1767225600, formats: [progressive, hls] },
    "instagram.com/reel/": { id: "C1a2B3c4D5e", title: "Reel by someone", uploader: "Some One", duration: 6, like_count: 2048, upload_date: "20260115", formats: [progressive] },
    "tiktok.com/": planned("TikTok", "7301234567890123456"),
    "x.com/": planned("X", "1720000000000000000"),
    "vimeo.com/": planned("Vimeo", "123456789"),
    "dailymotion.com/": planned("Dailymotion", "x8abcde"),
    "twitch.tv/": planned("Twitch", "FunnyClip-abc123"),
  };
}

/** A Facebook watch page as yt-dlp 2023.x describes it: SD/HD progressive files plus DASH tracks. */
export function facebookDocument(cdn: string): Record<string, unknown> {
  return {
    id: "1234567890",
    title: "Sunset over the harbour",
    description: "Filmed from the pier. ".repeat(12),
    uploader: "Harbour Films",
    uploader_id: "100064",
    timestamp: 1767225600,
    duration: 6.0,
    view_count: 15321,
    thumbnail: `${cdn}/thumbnail.jpg`,
    thumbnails: [{ url: `${cdn}/thumbnail.jpg`, width: 1280, height: 720, id: "0" }],
    webpage_url: "https://www.facebook.com/watch/?v=1234567890",
    extractor_key: "Facebook",
    formats: [
      { format_id: "sd", url: `${cdn}/progressive-360.mp4?_nc_sd=1`, ext: "mp4", protocol: "https", format_note: "SD", quality: -2 },
      { format_id: "1234v", url: `${cdn}/video-720.mp4?_nc_dash=1`, ext: "mp4", protocol: "https", vcodec: "avc1.64001F", acodec: "none", width: 1280, height: 720, tbr: 1500, fps: 30 },
      { format_id: "1234a", url: `${cdn}/audio-128.m4a?_nc_dash=1`, ext: "m4a", protocol: "https", vcodec: "none", acodec: "mp4a.40.2", tbr: 128, asr: 44100 },
      // what a real document also holds and we must leave out
      { format_id: "drm", url: `${cdn}/drm.mp4`, ext: "mp4", protocol: "https", vcodec: "avc1.64001F", acodec: "mp4a.40.2", has_drm: true, height: 1080, width: 1920 },
      { format_id: "sb", url: `${cdn}/storyboard.jpg`, ext: "mhtml", protocol: "mhtml", vcodec: "none", acodec: "none" },
    ],
  };
}

/** An Instagram reel as yt-dlp describes it: a playlist of one entry with progressive and DASH formats. */
export function instagramDocument(cdn: string): Record<string, unknown> {
  return {
    _type: "playlist",
    id: "C1a2B3c4D5e",
    title: "Post by someone",
    entries: [
      {
        id: "C1a2B3c4D5e",
        title: "Video by someone",
        channel: "someone",
        uploader: "Some One",
        uploader_id: "42",
        duration: 6.0,
        like_count: 2048,
        upload_date: "20260115",
        thumbnails: [{ url: `${cdn}/thumbnail.jpg`, width: 640, height: 360 }],
        formats: [
          { format_id: "8", url: `${cdn}/progressive-360.mp4?stp=dst`, ext: "mp4", width: 640, height: 360, protocol: "https" },
          { format_id: "dash-v720", url: `${cdn}/video-720.mp4?efg=1`, ext: "mp4", vcodec: "avc1.4d401f", acodec: "none", width: 1280, height: 720, protocol: "https", filesize: null },
          { format_id: "dash-a", url: `${cdn}/audio-128.m4a?efg=2`, ext: "m4a", vcodec: "none", acodec: "mp4a.40.2", protocol: "https" },
        ],
      },
    ],
  };
}

/**
 * The platforms the spec plans (TikTok, Twitter/X, Vimeo, Dailymotion, Twitch) as yt-dlp 2023.x
 * describes a public video of each, keyed for `by-link` by what their links contain. Each
 * platform's own mix: TikTok's progressive files with codecs named, Twitter's HLS variants plus
 * codec-less MP4s, Vimeo's HLS, DASH and progressive renditions, Dailymotion's HLS only, a
 * Twitch clip's codec-less MP4 qualities. The media sit on `cdn` (mapped to a local origin).
 */
export function otherPlatformDocuments(cdn: string): Record<string, Record<string, unknown>> {
  const tiktok = {
    id: "7301234567890123456",
    title: "Harbour birds #nature",
    description: "Harbour birds #nature",
    uploader: "someone",
    uploader_id: "6812345678901234567",
    channel: "Some One",
    creator: "Some One",
    timestamp: 1767225600,
    duration: 6,
    view_count: 48213,
    like_count: 3120,
    thumbnails: [{ id: "cover", url: `${cdn}/thumbnail.jpg`, preference: -2 }],
    extractor_key: "TikTok",
    formats: [
      { format_id: "download", format_note: "Download video, watermarked", url: `${cdn}/progressive-360.mp4?tk=dl`, ext: "mp4", protocol: "https", vcodec: "h264", acodec: "aac", width: 640, height: 360, quality: -2 },
      { format_id: "h264_360p_412000-0", url: `${cdn}/progressive-360.mp4?tk=play`, ext: "mp4", protocol: "https", vcodec: "h264", acodec: "aac", width: 640, height: 360, tbr: 412, fps: 24 },
    ],
  };
  const twitter = {
    id: "1720000000000000000",
    title: "Some One - A walk along the harbour",
    description: "A walk along the harbour https://t.co/abc",
    uploader: "Some One",
    uploader_id: "someone",
    timestamp: 1767225600,
    duration: 6,
    like_count: 12,
    thumbnail: `${cdn}/thumbnail.jpg`,
    extractor_key: "Twitter",
    formats: [
      { format_id: "hls-audio-128000-Audio", url: `${cdn}/hls/audio/index.m3u8`, manifest_url: `${cdn}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8_native", vcodec: "none" },
      { format_id: "hls-720", url: `${cdn}/hls/ts-720/index.m3u8`, manifest_url: `${cdn}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8_native", width: 1280, height: 720 },
      { format_id: "http-632", url: `${cdn}/progressive-360.mp4?tag=12`, ext: "mp4", protocol: "https", width: 640, height: 360, tbr: 632 },
    ],
  };
  const vimeo = {
    id: "123456789",
    title: "Harbour at dusk",
    description: "Shot on a phone.",
    uploader: "Harbour Films",
    uploader_id: "harbourfilms",
    timestamp: 1767225600,
    duration: 6,
    view_count: 901,
    thumbnails: [{ id: "0", url: `${cdn}/thumbnail.jpg`, width: 1280, height: 720 }],
    extractor_key: "Vimeo",
    formats: [
      { format_id: "hls-fastly_skyfire-720p", url: `${cdn}/hls/ts-720/index.m3u8`, manifest_url: `${cdn}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8_native", width: 1280, height: 720 },
      { format_id: "dash-fastly_skyfire-video-1", manifest_url: `${cdn}/dash/manifest.mpd`, url: `${cdn}/dash/`, ext: "mp4", protocol: "http_dash_segments", vcodec: "avc1.64001F", acodec: "none", width: 1280, height: 720 },
      { format_id: "http-360p", url: `${cdn}/progressive-360.mp4?vimeo=1`, ext: "mp4", protocol: "https", width: 640, height: 360, fps: 24 },
    ],
  };
  const dailymotion = {
    id: "x8abcde",
    title: "Harbour news",
    uploader: "Harbour TV",
    uploader_id: "harbourtv",
    timestamp: 1767225600,
    duration: 6,
    view_count: 77,
    thumbnails: [{ id: "720", url: `${cdn}/thumbnail.jpg`, height: 720 }],
    extractor_key: "Dailymotion",
    formats: [
      { format_id: "hls-380", url: `${cdn}/hls/ts-360/index.m3u8`, manifest_url: `${cdn}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8", width: 640, height: 360 },
      { format_id: "hls-720", url: `${cdn}/hls/ts-720/index.m3u8`, manifest_url: `${cdn}/hls/master.m3u8`, ext: "mp4", protocol: "m3u8", width: 1280, height: 720 },
    ],
  };
  const twitch = {
    id: "FunnyClipName-abc123",
    title: "That moment",
    uploader: "somestreamer",
    creator: "somestreamer",
    timestamp: 1767225600,
    duration: 6,
    view_count: 3500,
    thumbnails: [{ id: "medium", url: `${cdn}/thumbnail.jpg` }],
    extractor_key: "TwitchClips",
    formats: [{ format_id: "360", url: `${cdn}/progressive-360.mp4?sig=clip`, ext: "mp4", protocol: "https", height: 360, fps: 24 }],
  };
  return { "tiktok.com": tiktok, "twitter.com": twitter, "x.com/": twitter, "vimeo.com": vimeo, "dailymotion.com": dailymotion, "dai.ly": dailymotion, "twitch.tv": twitch };
}

/** A Vimeo video offered only as DASH (video and audio adaptation sets, no progressive file). */
export function dashOnlyDocument(cdn: string): Record<string, unknown> {
  const dash = { manifest_url: `${cdn}/dash/manifest.mpd`, url: `${cdn}/dash/`, ext: "mp4", protocol: "http_dash_segments" };
  return {
    id: "987654321",
    title: "DASH only",
    uploader: "Harbour Films",
    duration: 6,
    extractor_key: "Vimeo",
    formats: [
      { ...dash, format_id: "dash-video-720", vcodec: "avc1.64001F", acodec: "none", width: 1280, height: 720 },
      { ...dash, format_id: "dash-video-360", vcodec: "avc1.4D401E", acodec: "none", width: 640, height: 360 },
      { ...dash, ext: "m4a", format_id: "dash-audio", vcodec: "none", acodec: "mp4a.40.2" },
    ],
  };
}

/** An Instagram reel offered only as separate video and audio files (no progressive rendition). */
export function separateTracksDocument(cdn: string): Record<string, unknown> {
  return {
    id: "C9z8Y7x6W5v",
    title: "Video by someone",
    uploader: "Some One",
    duration: 6,
    extractor_key: "Instagram",
    formats: [
      { format_id: "dash-v360", url: `${cdn}/video-360.mp4?efg=a`, ext: "mp4", vcodec: "avc1.4d401e", acodec: "none", width: 640, height: 360, protocol: "https" },
      { format_id: "dash-v720", url: `${cdn}/video-720.mp4?efg=b`, ext: "mp4", vcodec: "avc1.4d401f", acodec: "none", width: 1280, height: 720, protocol: "https" },
      { format_id: "dash-a", url: `${cdn}/audio-128.m4a?efg=c`, ext: "m4a", vcodec: "none", acodec: "mp4a.40.2", protocol: "https", asr: 44100 },
    ],
  };
}
