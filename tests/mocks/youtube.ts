/**
 * A local fake of the YouTube hosts for tests. What it answers comes from a `YouTubeResponses`
 * set: by default the RECORDED responses in ../shared/fixtures/youtube (read at test time, never
 * copied into the repository; `VIDFETCH_FIXTURES_DIR` points elsewhere), or any other set in the
 * same shapes (the integration suite also runs on project-owned synthetic ones, so a clone
 * without ../shared still tests the YouTube path). The cases: InnerTube `/player` per client
 * (VISIONOS, ANDROID SABR-only, ANDROID with URLs), `/next`, every playability error, the Data
 * API v3 `videos`/`channels` lists, plus caption tracks, thumbnails and the stream bytes.
 *
 * What is patched at serve time in recorded bodies, and why: stream URLs keep their recorded
 * googlevideo host, path and query (the host map sends them here), but `expire` moves into the
 * future (the recorded ones are long past) and `contentLength`/duration follow the locally
 * generated media (E3's `ensureMockMedia`) that is served for each itag, so sizes and durations
 * stay consistent. Recorded timedtext payloads do not exist (fixtures/PROVENANCE.md), so caption
 * bodies are a small sample of our own in json3/srv3 shape.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serveMediaFile, type MockMediaSet } from "./media.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The recorded fixtures: ../shared/fixtures beside the clone, or wherever VIDFETCH_FIXTURES_DIR says. */
export const FIXTURES_ROOT = path.resolve(process.env.VIDFETCH_FIXTURES_DIR || path.resolve(repoRoot, "../shared/fixtures"));
export const FIXTURES_DIR = path.join(FIXTURES_ROOT, "youtube");
export const hasYouTubeFixtures = existsSync(FIXTURES_DIR);

/** Recorded player bodies, by a short name. NewPipe mocks are unwrapped to their response body. */
const PLAYER_FIXTURES = {
  visionos: "bodies/player_visionos_M4gD1WSo5mA_2026-06.json",
  androidSabrOnly: "bodies/reel_item_watch_android_sabr_only_M4gD1WSo5mA_2026-06.json",
  android2026Jan: "bodies/reel_item_watch_android_M4gD1WSo5mA_2026-01.json",
  privateReel: "bodies/reel_item_watch_android_private_LOGIN_REQUIRED.json",
  private: "newpipe/notavailable_privatecontent_mock_1.json",
  membersOnly: "newpipe/notavailable_paidcontent_mock_1.json",
  regionBlocked: "newpipe/notavailable_restricted_mock_1.json",
  musicPremium: "newpipe/notavailable_musicpremiumcontent_mock_1.json",
  nonexistent: "newpipe/notavailable_nonexistent_mock_1.json",
  live: "newpipe/livestream_2026-06_visionos_player_mock_3.json",
  upcoming: "invidious-mocks/scheduled_live_PBD-Podcast.player.json",
  ageRestricted: "youtube-transcript-api/youtube_age_restricted.innertube.json",
  botCheck: "youtube-transcript-api/youtube_request_blocked.innertube.json",
  unavailable: "youtube-transcript-api/youtube_video_unavailable.innertube.json",
} as const;
export type PlayerFixture = keyof typeof PLAYER_FIXTURES;

/** Which recorded body each client gets, per video id. `*` = any client. */
export type PlayerScenario = Partial<Record<string, PlayerFixture>>;

/** The real video of the recorded player/next responses. */
export const RECORDED_VIDEO_ID = "M4gD1WSo5mA";

/** Video ids (11 characters, like real ones) the fake answers with each case (the main video's id is any other). */
export const MOCK_VIDEOS = {
  recorded: RECORDED_VIDEO_ID,
  androidWithUrls: "andr2026jan",
  sabrOnlyEverywhere: "sabrOnly_01",
  nextFails: "nextFails01",
  noMaxres: "noMaxres_01",
  private: "privateVid1",
  privateReel: "privateRee1",
  membersOnly: "paidMember1",
  regionBlocked: "regionBlock",
  musicPremium: "musicPremum",
  nonexistent: "doesntExist",
  live: "liveStream1",
  upcoming: "upcomingLiv",
  ageRestricted: "ageRestrict",
  botCheck: "botCheck_01",
  unavailable: "unavailabl1",
  /** WEB answers with signature-ciphered formats (synthetic, see cipherPlayerBody); others SABR-only */
  cipherOnly: "cipherOnly1",
  /** Data API: the video item of modeldata__videos__video_api_response.json (channel recorded) */
  apiVideo: "D-lhorsDlUQ",
  /** Data API: an item of videos_info_multi whose channel is not recorded: the channel call fails */
  apiChannelFails: "ovdbrdCIP7U",
  /** Data API: answers 403 quotaExceeded */
  apiQuota: "quotaExceed",
  /** Data API: answers an empty item list */
  apiMissing: "apiMissing1",
} as const;

const DEFAULT_SCENARIO: PlayerScenario = { VISIONOS: "visionos", ANDROID: "androidSabrOnly", "*": "android2026Jan" };

const SCENARIOS: Record<string, PlayerScenario> = {
  [MOCK_VIDEOS.androidWithUrls]: { "*": "android2026Jan" },
  [MOCK_VIDEOS.sabrOnlyEverywhere]: { "*": "androidSabrOnly" },
  [MOCK_VIDEOS.private]: { "*": "private" },
  [MOCK_VIDEOS.privateReel]: { "*": "privateReel" },
  [MOCK_VIDEOS.membersOnly]: { "*": "membersOnly" },
  [MOCK_VIDEOS.regionBlocked]: { "*": "regionBlocked" },
  [MOCK_VIDEOS.musicPremium]: { "*": "musicPremium" },
  [MOCK_VIDEOS.nonexistent]: { "*": "nonexistent" },
  [MOCK_VIDEOS.live]: { "*": "live" },
  [MOCK_VIDEOS.upcoming]: { "*": "upcoming" },
  [MOCK_VIDEOS.ageRestricted]: { "*": "ageRestricted" },
  [MOCK_VIDEOS.botCheck]: { "*": "botCheck" },
  [MOCK_VIDEOS.unavailable]: { "*": "unavailable" },
};

export function readFixtureJson(relative: string): unknown {
  const raw = JSON.parse(readFileSync(path.join(FIXTURES_DIR, relative), "utf8")) as Record<string, unknown>;
  // NewPipe "generated_mock" files wrap the server's answer; serve the body exactly as sent.
  const response = raw.response as { responseBody?: string } | undefined;
  if (response && typeof response.responseBody === "string" && "request" in raw) return JSON.parse(response.responseBody);
  return raw;
}

/** itag → the generated file served for it (144p has no file of its own: the 360p one stands in). */
function fileForItag(media: MockMediaSet, itag: string): string | undefined {
  const table: Record<string, string> = {
    "18": media.progressive,
    "137": media.video[1080],
    "136": media.video[720],
    "135": media.video[480],
    "134": media.video[360],
    "160": media.video[360],
    "243": media.webmVideo,
    "247": media.webmVideo,
    "139": media.audioM4a,
    "140": media.audioM4a,
    "251": media.audioWebm,
    "250": media.audioWebm,
    "249": media.audioWebm,
  };
  return table[itag];
}

// Recorded JSON of many shapes, walked by hand in a test mock.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** Moves `expire` into the future and aligns lengths/duration with the generated media. */
export function patchPlayerBody(body: unknown, media: MockMediaSet, now = Date.now()): unknown {
  const copy = structuredClone(body) as Json;
  const pr: Json = copy.playerResponse ?? copy;
  const expire = String(Math.floor(now / 1000) + 6 * 3600);
  const patchFormat = (f: Json) => {
    const file = fileForItag(media, String(f.itag));
    if (file) f.contentLength = String(statSync(file).size);
    f.approxDurationMs = String(Math.round(media.durationSeconds * 1000));
    if (typeof f.url === "string") {
      const url = new URL(f.url);
      url.searchParams.set("expire", expire);
      if (file) url.searchParams.set("clen", String(statSync(file).size));
      f.url = url.href;
    }
  };
  const sd: Json | undefined = pr.streamingData;
  if (sd) {
    for (const f of sd.formats ?? []) patchFormat(f);
    for (const f of sd.adaptiveFormats ?? []) patchFormat(f);
    sd.expiresInSeconds = "21540";
  }
  if (pr.videoDetails && pr.videoDetails.lengthSeconds !== "0") pr.videoDetails.lengthSeconds = String(Math.round(media.durationSeconds));
  return copy;
}

/**
 * The decipher path has no recorded counterpart (no WEB player response with ciphers and no
 * player script are in the fixtures), so it is exercised with a small synthetic pair: a player
 * script in the layout youtubei.js's extractor looks for, whose "cipher" reverses the signature
 * and the `n` value, and a WEB `/player` answer whose formats carry only `signatureCipher`. The
 * stream handler refuses URLs that were not deciphered correctly (403, like googlevideo).
 */
export const SYNTHETIC_PLAYER_SCRIPT = `var _yt_player = {};
(function (g) {
var mockUrlProto = {
  get: function (k) { return this.params[k] === undefined ? null : encodeURIComponent(this.params[k]); },
  set: function (k, v) { this.params[k] = v; },
  clone: function () { return this; },
  transformN: function () { if (this.params.n) this.params.n = this.params.n.split("").reverse().join("") + "_ok"; },
  transformSig: function () { if (this.s) this.params[this.sp] = this.s.split("").reverse().join(""); }
};
var lib = { MockUrl: function (url, sp, s) {
  var o = Object.create(mockUrlProto);
  o.params = {};
  o.sp = sp;
  o.s = s;
  var parts = (url.split("?")[1] || "").split("&");
  for (var i = 0; i < parts.length; i++) {
    if (!parts[i]) continue;
    var kv = parts[i].split("=");
    o.params[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1] || "");
  }
  return o;
} };
var decipherEntry = function (url, sp = "signature", s = "") {
  url = new lib.MockUrl(url, sp, s);
  url.set("alr", "yes");
  return url;
};
var playerConfig = function () { return { signatureTimestamp: 20412 }; };
g.decipherEntry = decipherEntry;
g.playerConfig = playerConfig;
})(_yt_player);
`;
export const SYNTHETIC_SIGNATURE = "GOODSIG123";
const CIPHER_N = "abcdef";

function cipherPlayerBody(media: MockMediaSet, now = Date.now()): unknown {
  const expire = Math.floor(now / 1000) + 6 * 3600;
  const entry = (itag: number, mimeType: string, file: string, extra: Json) => {
    const url = `https://rr1---sn-mock.googlevideo.com/videoplayback?expire=${expire}&itag=${itag}&id=cipher&n=${CIPHER_N}&clen=${statSync(file).size}`;
    const cipher = new URLSearchParams({ s: SYNTHETIC_SIGNATURE.split("").reverse().join(""), sp: "sig", url });
    return { itag, signatureCipher: cipher.toString(), mimeType, bitrate: 500000, contentLength: String(statSync(file).size), approxDurationMs: String(media.durationSeconds * 1000), ...extra };
  };
  return {
    playabilityStatus: { status: "OK", playableInEmbed: true },
    streamingData: {
      expiresInSeconds: "21540",
      adaptiveFormats: [
        entry(137, 'video/mp4; codecs="avc1.640028"', media.video[1080], { width: 1920, height: 1080, fps: 24, quality: "hd1080", qualityLabel: "1080p" }),
        entry(140, 'audio/mp4; codecs="mp4a.40.2"', media.audioM4a, { audioSampleRate: "44100", audioChannels: 2, quality: "tiny" }),
      ],
    },
    videoDetails: { videoId: MOCK_VIDEOS.cipherOnly, title: "Ciphered sample", lengthSeconds: String(media.durationSeconds), channelId: "UCmock", author: "Mock", viewCount: "10", shortDescription: "" },
  };
}

/** A small caption sample of our own (no recorded timedtext payload exists), in json3 and srv3. */
export const MOCK_CAPTION_LINES = [
  { startMs: 0, durMs: 2000, text: "The terms on which this lecture may be used" },
  { startMs: 2000, durMs: 2000, text: "are available at copyx.org & its permission page." },
  { startMs: 4000, durMs: 1500, text: "Thanks for watching." },
];

export function captionJson3(lines = MOCK_CAPTION_LINES): string {
  return JSON.stringify({
    wireMagic: "pb3",
    events: [
      { tStartMs: 0, dDurationMs: lines.at(-1)!.startMs + lines.at(-1)!.durMs, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      ...lines.map((l) => ({ tStartMs: l.startMs, dDurationMs: l.durMs, wWinId: 1, segs: [{ utf8: l.text }] })),
    ],
  });
}

export function captionSrv3(lines = MOCK_CAPTION_LINES): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const ps = lines.map((l) => `<p t="${l.startMs}" d="${l.durMs}">${esc(l.text)}</p>`).join("\n");
  return `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">\n<body>\n${ps}\n</body>\n</timedtext>\n`;
}

/** Serves a file with Range support and an exact Content-Length (like googlevideo). */
export function serveFile(req: IncomingMessage, res: ServerResponse, file: string, contentType: string): void {
  serveMediaFile(req, res, file, contentType);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of req) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

const mimeOf = (file: string) =>
  file.endsWith(".webm") ? "video/webm" : file.endsWith(".m4a") ? "audio/mp4" : file.endsWith(".jpg") ? "image/jpeg" : "video/mp4";

export interface MockRequest {
  method: string;
  path: string;
  client?: string;
  videoId?: string;
  /** playbackContext.contentPlaybackContext.signatureTimestamp of a player request */
  signatureTimestamp?: number;
}

export interface MockYouTube {
  origin: string;
  /** OUTBOUND_HOST_MAP value sending every YouTube host here */
  hostMap: string;
  /** requests seen, in order (tests assert on the client order and on what was fetched) */
  requests: MockRequest[];
  close(): Promise<void>;
}

/** The hosts the real platform uses, mapped to one origin. */
export function youtubeHostMap(origin: string): string {
  return [
    "www.youtube.com",
    "youtubei.googleapis.com",
    "*.googlevideo.com",
    "i.ytimg.com",
    "yt3.ggpht.com",
    "yt3.googleusercontent.com",
    "www.googleapis.com",
  ]
    .map((host) => `${host}=${origin}`)
    .join(",");
}

/** Everything the fake answers that differs between response sets; the rest is shared. */
export interface YouTubeResponses {
  kind: "recorded" | "synthetic";
  /** the `/player` (or reel_item_watch) body of a case, as the fake sends it for `videoId` */
  player(fixture: PlayerFixture, videoId: string): unknown;
  /** the `/next` body for `videoId` */
  next(videoId: string): unknown;
  /** the `/iframe_api` script, which names the player script version */
  iframeApi(): string;
  /** Data API v3 items the `videos` and `channels` lists are answered from (by id) */
  dataApi: { videos: Json[]; channels: Json[] };
}

/** The recorded responses (../shared/fixtures/youtube), with stream URLs and sizes patched. */
export function recordedResponses(media: MockMediaSet): YouTubeResponses {
  const next = readFixtureJson("bodies/next_web_M4gD1WSo5mA_2026-06.json");
  // recorded (NewPipe mock): names player c9168c90
  const iframe = JSON.parse(readFileSync(path.join(FIXTURES_DIR, "newpipe/iframe_api_mock_0.json"), "utf8")) as Json;
  return {
    kind: "recorded",
    player: (fixture) => patchPlayerBody(readFixtureJson(PLAYER_FIXTURES[fixture]), media),
    next: () => next,
    iframeApi: () => iframe.response.responseBody as string,
    dataApi: {
      videos: [
        ...((readFixtureJson("data-api-v3/modeldata__videos__video_api_response.json") as Json).items as Json[]),
        ...((readFixtureJson("data-api-v3/apidata__videos__videos_info_multi.json") as Json).items as Json[]),
      ],
      channels: (readFixtureJson("data-api-v3/apidata__channels__info_multiple.json") as Json).items as Json[],
    },
  };
}

export async function startMockYouTube(opts: {
  media: MockMediaSet;
  /** what the fake answers with; the recorded fixtures when left out */
  responses?: YouTubeResponses;
  scenarios?: Record<string, PlayerScenario>;
}): Promise<MockYouTube> {
  const { media } = opts;
  const responses = opts.responses ?? recordedResponses(media);
  const scenarios = { ...SCENARIOS, ...opts.scenarios };
  const requests: MockRequest[] = [];
  const { dataApi } = responses;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(err) } });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://mock");
    const p = url.pathname;
    const entry: MockRequest = { method: req.method ?? "GET", path: p };
    requests.push(entry);

    if (req.method === "POST" && (p === "/youtubei/v1/player" || p === "/youtubei/v1/reel/reel_item_watch")) {
      const body = JSON.parse((await readBody(req)) || "{}") as Json;
      const videoId = String(body.videoId ?? body.playerRequest?.videoId ?? "");
      const client = String(body.context?.client?.clientName ?? "");
      entry.client = client;
      entry.videoId = videoId;
      if (videoId === MOCK_VIDEOS.cipherOnly && client === "WEB") {
        entry.signatureTimestamp = body.playbackContext?.contentPlaybackContext?.signatureTimestamp;
        return sendJson(res, 200, cipherPlayerBody(media));
      }
      const scenario = scenarios[videoId] ?? DEFAULT_SCENARIO;
      const fixture = scenario[client] ?? scenario["*"];
      if (!fixture) return sendJson(res, 400, { error: { code: 400, message: "Request contains an invalid argument." } });
      return sendJson(res, 200, responses.player(fixture, videoId));
    }
    if (req.method === "POST" && p === "/youtubei/v1/next") {
      const body = JSON.parse((await readBody(req)) || "{}") as Json;
      entry.videoId = String(body.videoId ?? "");
      if (entry.videoId === MOCK_VIDEOS.nextFails) return sendJson(res, 500, { error: { code: 500, message: "Internal error encountered." } });
      return sendJson(res, 200, responses.next(entry.videoId));
    }
    if (p === "/videoplayback") {
      if (url.searchParams.get("id") === "cipher") {
        const ok = url.searchParams.get("sig") === SYNTHETIC_SIGNATURE && url.searchParams.get("n") === `${CIPHER_N.split("").reverse().join("")}_ok`;
        if (!ok) return void res.writeHead(403).end();
      }
      const file = fileForItag(media, url.searchParams.get("itag") ?? "");
      if (!file) return void res.writeHead(404).end();
      return serveFile(req, res, file, mimeOf(file));
    }
    if (p === "/iframe_api") {
      res.writeHead(200, { "content-type": "text/javascript" });
      return void res.end(responses.iframeApi());
    }
    if (/^\/s\/player\/[^/]+\/player_es6\.vflset\/en_US\/base\.js$/.test(p)) {
      res.writeHead(200, { "content-type": "text/javascript" });
      return void res.end(SYNTHETIC_PLAYER_SCRIPT);
    }
    if (p === "/api/timedtext") {
      const fmt = url.searchParams.get("fmt");
      const text = fmt === "json3" ? captionJson3() : captionSrv3();
      res.writeHead(200, { "content-type": fmt === "json3" ? "application/json; charset=UTF-8" : "text/xml; charset=UTF-8" });
      return void res.end(text);
    }
    const thumb = /^\/vi\/([^/]+)\/([a-z0-9_]+)\.jpg$/.exec(p);
    if (thumb) {
      if (thumb[2] === "maxresdefault" && thumb[1] === MOCK_VIDEOS.noMaxres) return void res.writeHead(404).end();
      return serveFile(req, res, media.thumbnail, "image/jpeg");
    }
    if (/^\/(ytc|a)\//.test(p) || p.startsWith("/vi_webp/")) return serveFile(req, res, media.thumbnail, "image/jpeg");
    if (p === "/youtube/v3/videos") return dataApiVideos(url, res);
    if (p === "/youtube/v3/channels") return dataApiChannels(url, res);
    res.writeHead(404).end();
  }

  function dataApiVideos(url: URL, res: ServerResponse): void {
    const id = url.searchParams.get("id") ?? "";
    if (!url.searchParams.get("key")) {
      return sendJson(res, 403, { error: { code: 403, message: "The request is missing a valid API key.", status: "PERMISSION_DENIED" } });
    }
    if (id === MOCK_VIDEOS.apiQuota) {
      return sendJson(res, 403, {
        error: {
          code: 403,
          message: "The request cannot be completed because you have exceeded your quota.",
          errors: [{ message: "The request cannot be completed because you have exceeded your quota.", domain: "youtube.quota", reason: "quotaExceeded" }],
        },
      });
    }
    const item = dataApi.videos.find((v) => v.id === id);
    sendJson(res, 200, { kind: "youtube#videoListResponse", items: item ? [item] : [], pageInfo: { totalResults: item ? 1 : 0, resultsPerPage: 1 } });
  }

  function dataApiChannels(url: URL, res: ServerResponse): void {
    const id = url.searchParams.get("id") ?? "";
    const item = dataApi.channels.find((c) => c.id === id);
    // Channels that were not recorded stand for a failing channel call.
    if (!item) return sendJson(res, 503, { error: { code: 503, message: "The service is currently unavailable." } });
    sendJson(res, 200, { kind: "youtube#channelListResponse", items: [item], pageInfo: { totalResults: 1, resultsPerPage: 5 } });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    hostMap: youtubeHostMap(origin),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
