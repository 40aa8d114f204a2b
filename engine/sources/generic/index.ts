/**
 * Generic media links: a direct media file, an HLS playlist (master or media) or a DASH manifest
 * on any host the SSRF guard allows. Everything is read through `ctx.fetch`; codecs and sizes
 * come from the manifest where it says them and from probing the first bytes where it does not.
 */
import { createHash } from "node:crypto";
import { PassThrough, Readable } from "node:stream";
import { hlsSubtitleTracks } from "../../captions/hls-vtt.ts";
import { formatDuration, formatPublishedDate } from "../../details/format.ts";
import { EngineError, ERRORS, isEngineError } from "../../errors.ts";
import { probeStream, type ProbeResult } from "../../media/probe.ts";
import type { CaptionTrack, ResolvedMedia, SegmentRef, UpstreamStream, VideoDetails } from "../../types.ts";
import type { ParsedLink, SourceAdapter, SourceContext } from "../types.ts";
import { normaliseProbeCodec } from "./codecs.ts";
import { resolveDash } from "./dash.ts";
import { fetchHead, fetchText, PROBE_BYTES, type Head } from "./fetch-bytes.ts";
import { isMasterPlaylist, mediaPlaylist, parseM3u8, resolveHlsMaster } from "./hls.ts";
import { checkPlaylistText } from "./segment-limits.ts";

type Kind = "hls" | "dash" | "media";

function kindFromPath(url: string): Kind | null {
  const path = new URL(url).pathname.toLowerCase();
  if (path.endsWith(".m3u8") || path.endsWith(".m3u")) return "hls";
  if (path.endsWith(".mpd")) return "dash";
  return null;
}

function kindFromHead(head: Head): Kind {
  const type = head.contentType.toLowerCase();
  const start = head.bytes.subarray(0, 4096).toString("utf8").replace(/^\uFEFF/, "").trimStart();
  if (type.includes("mpegurl") || start.startsWith("#EXTM3U")) return "hls";
  if (type.includes("dash+xml") || (start.startsWith("<") && /<MPD[\s>]/.test(start))) return "dash";
  if (type.startsWith("text/html") || /^<!doctype html|^<html/i.test(start)) {
    throw new EngineError("link.unsupported", { detail: `${head.url} is a web page, not media` });
  }
  return "media";
}

/** "My%20Clip.final.mp4" → "My Clip.final"; generic manifest names fall back to their folder or host. */
export function titleFromUrl(url: string): string {
  const u = new URL(url);
  const parts = u.pathname.split("/").filter(Boolean).map(safeDecode);
  const GENERIC = /^(master|index|manifest|playlist|stream|video|main|media|prog_index|chunklist)$/i;
  for (let i = parts.length - 1; i >= 0; i--) {
    const name = parts[i]!.replace(/\.[a-z0-9]{1,5}$/i, "").trim();
    if (name && !GENERIC.test(name)) return name;
  }
  return u.hostname;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    // a stray "%" in a path: show it as written
    return s;
  }
}

function idFor(url: string): string {
  return createHash("sha256").update(url).digest("base64url").slice(0, 11);
}

function detailsFor(url: string, durationSeconds: number, lastModified: string | null): VideoDetails {
  const host = new URL(url).hostname;
  return {
    id: idFor(url),
    title: titleFromUrl(url),
    description: "",
    thumbnail: "",
    channelTitle: host,
    channelId: "",
    channelThumbnail: "",
    isMonetized: false,
    subscriberCount: "Unknown",
    publishedAt: formatPublishedDate(lastModified),
    duration: formatDuration(durationSeconds),
    viewCount: "",
    likeCount: "",
    tags: [],
    downloadUrl: url,
    platform: "generic",
    durationSeconds,
    embedUrl: null,
  };
}

function containerOf(probe: ProbeResult, audioOnly: boolean): UpstreamStream["container"] {
  const f = probe.formatName;
  if (f.includes("webm") || f.includes("matroska")) return "webm";
  if (f.includes("mp4") || f.includes("mov")) return audioOnly ? "m4a" : "mp4";
  if (f.includes("mpegts")) return "ts";
  if (f === "mp3") return "mp3";
  if (f === "aac") return "aac";
  return "unknown";
}

/** Fills codec and size fields from a probe, and fixes the kind when the manifest did not say. */
function applyProbe(s: UpstreamStream, probe: ProbeResult): UpstreamStream {
  const v = probe.streams.find((x) => x.kind === "video" && x.codec !== "mjpeg" && x.codec !== "png");
  const a = probe.streams.find((x) => x.kind === "audio");
  const kind: UpstreamStream["kind"] = v && a ? "progressive" : v ? "video" : "audio";
  return {
    ...s,
    kind: s.kind === "video" && !v ? s.kind : kind,
    vcodec: s.vcodec ?? (v ? normaliseProbeCodec(v.codec) : undefined),
    acodec: s.acodec ?? (a ? normaliseProbeCodec(a.codec) : undefined),
    width: s.width ?? v?.width,
    height: s.height ?? v?.height,
    fps: s.fps ?? v?.fps,
    audioSampleRate: s.audioSampleRate ?? a?.sampleRate,
  };
}

async function probeBuffer(ctx: SourceContext, buf: Buffer): Promise<ProbeResult> {
  return probeStream(ctx.media, Readable.from([buf]));
}

/**
 * Bytes of a segment read first to probe it: the start of a TS or fMP4 segment says its codecs
 * and picture size (a 4 s 1080p segment is 2 MB; reading it whole would only cost time).
 */
export const SEGMENT_PROBE_BYTES = 256 * 1024;

/** True when a probe of part of a segment says all a longer read could (else one is tried). */
function probeAnswers(s: UpstreamStream, probe: ProbeResult): boolean {
  const v = probe.streams.find((x) => x.kind === "video" && x.codec !== "mjpeg" && x.codec !== "png");
  const a = probe.streams.find((x) => x.kind === "audio");
  if (v && (!v.width || !v.height)) return false;
  if (a && !a.sampleRate) return false;
  if (s.kind === "video" && !s.vcodec && !v) return false;
  if (s.kind === "audio" && !s.acodec && !a) return false;
  return Boolean(v || a);
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/**
 * Fetches the init section (when there is one) and the first `limit` bytes of a segment, both at
 * once, and probes them while they arrive: the prober is started with the requests, so its own
 * start-up (tens of milliseconds) passes during the origin's latency, and it reads the segment's
 * pieces as they come (the init section's bytes first, so pieces that come before it wait).
 */
async function probeWhileFetching(
  ctx: SourceContext,
  init: SegmentRef | undefined,
  segment: SegmentRef,
  limit: number,
): Promise<{ initHead: Head | null; first: Head; probe: ProbeResult | Error }> {
  const input = new PassThrough();
  const probing = probeStream(ctx.media, input).catch(asError);
  const write = (bytes: Buffer) => {
    // the prober may stop reading once it knows enough
    if (!input.destroyed && !input.writableEnded) input.write(bytes);
  };
  let held: Buffer[] | null = init ? [] : null;
  const onChunk = (bytes: Buffer) => (held ? held.push(bytes) : write(bytes));
  try {
    const [initHead, first] = await Promise.all([
      init
        ? fetchHead(ctx, init).then((head) => {
            write(head.bytes);
            for (const bytes of held ?? []) write(bytes);
            held = null;
            return head;
          })
        : null,
      fetchHead(ctx, segment, limit, undefined, onChunk),
    ]);
    input.end();
    return { initHead, first, probe: await probing };
  } catch (err) {
    // an error (not a plain destroy) ends the prober's stdin: it exits before this one is thrown
    input.destroy(asError(err));
    await probing;
    throw err;
  }
}

/**
 * Probes the init section plus the first segment of a stream whose codecs the manifest left out:
 * both are fetched at once, the segment only in part (`SEGMENT_PROBE_BYTES`, then up to
 * `PROBE_BYTES` when that was not enough to tell), and probed as they arrive.
 */
async function probeSegments(ctx: SourceContext, s: UpstreamStream): Promise<UpstreamStream> {
  if (s.transport.type !== "segments") return s;
  const needVideo = s.kind !== "audio" && !s.vcodec;
  const needAudio = s.kind !== "video" && !s.acodec;
  if (!needVideo && !needAudio) return s;
  const { init, segments } = s.transport;
  const { initHead, first, probe: short } = await probeWhileFetching(ctx, init, segments[0]!, SEGMENT_PROBE_BYTES);
  const bytes = (segment: Buffer) => (initHead ? Buffer.concat([initHead.bytes, segment]) : segment);
  if (!(short instanceof Error) && probeAnswers(s, short)) return applyProbe(s, short);
  // fewer bytes than asked: that was the whole segment, a longer read would add nothing
  if (first.bytes.length < SEGMENT_PROBE_BYTES) {
    if (short instanceof Error) throw short;
    return applyProbe(s, short);
  }
  const longer = await fetchHead(ctx, segments[0]!, PROBE_BYTES);
  return applyProbe(s, await probeBuffer(ctx, bytes(longer.bytes)));
}

async function resolveHls(ctx: SourceContext, text: string, url: string): Promise<{ streams: UpstreamStream[]; durationSeconds: number; captions?: CaptionTrack[] }> {
  checkPlaylistText(text, url);
  const manifest = parseM3u8(text);
  if (isMasterPlaylist(manifest)) {
    // each stream is probed as soon as its own playlist has arrived, while the others load
    const master = await resolveHlsMaster(ctx, manifest, url, (s) => probeSegments(ctx, s));
    // the subtitles' time zero is the video's first timestamp: its first MPEG-TS segment's (captions/ts-start.ts)
    const video = master.streams.find((s) => s.kind !== "audio" && s.container === "ts");
    const timeline = video?.transport.type === "segments" ? video.transport.segments[0] : undefined;
    return { ...master, captions: hlsSubtitleTracks(manifest.mediaGroups?.SUBTITLES, url, timeline) };
  }
  const playlist = mediaPlaylist(manifest, url);
  const stream: UpstreamStream = {
    id: "hls-0",
    kind: "progressive",
    url,
    transport: { type: "segments", protocol: "hls", ...(playlist.init ? { init: playlist.init } : {}), segments: playlist.segments },
    container: playlist.container,
  };
  ctx.streamsKnown?.([stream]);
  return { streams: [await probeSegments(ctx, stream)], durationSeconds: playlist.durationSeconds };
}

interface Box {
  type: string;
  start: number;
  size: number;
}

/** Top-level ISO BMFF boxes found in `buf` (the last one may extend beyond it). */
export function topLevelBoxes(buf: Buffer): Box[] {
  const out: Box[] = [];
  let off = 0;
  while (off + 8 <= buf.length) {
    let size = buf.readUInt32BE(off);
    const type = buf.toString("latin1", off + 4, off + 8);
    let header = 8;
    if (!/^[\x20-\x7e]{4}$/.test(type)) break;
    if (size === 1) {
      if (off + 16 > buf.length) break;
      size = Number(buf.readBigUInt64BE(off + 8));
      header = 16;
    } else if (size === 0) {
      out.push({ type, start: off, size: Number.POSITIVE_INFINITY });
      break;
    }
    if (size < header) break;
    out.push({ type, start: off, size });
    off += size;
  }
  return out;
}

/** Media bytes read past an MP4's moov, so the prober decodes a first frame as it would from a longer read. */
const AFTER_MOOV_BYTES = 64 * 1024;

/**
 * How much of a direct file describes it (see `fetchHead`'s `enough`). An MP4 whose moov comes
 * first is described by ftyp + moov (a few KB to a few hundred): reading on to a megabyte only
 * costs time, a second at 1 MiB/s on a CDN throttling each connection. An MP4 whose media data
 * comes first is read to the mdat header (its moov is then fetched from the end). Anything
 * else (WebM, TS, MP3, a manifest, a page) is read as before, up to the limit.
 */
export function describingBytes(buf: Buffer): number | null {
  if (buf.length < 8) return null;
  const boxes = topLevelBoxes(buf);
  if (boxes[0]?.type !== "ftyp") return Number.POSITIVE_INFINITY;
  for (const box of boxes) {
    if (box.type === "moov") return Number.isFinite(box.size) ? box.start + box.size + AFTER_MOOV_BYTES : Number.POSITIVE_INFINITY;
    if (box.type === "mdat") return box.start + 16;
  }
  const last = boxes[boxes.length - 1]!;
  // the boxes so far end inside what was read, yet none came next: not a layout to judge early
  return last.start + last.size <= buf.length - 8 ? Number.POSITIVE_INFINITY : null;
}

/** An index (moov) larger than this is not worth fetching to describe a file. */
const MOOV_MAX_BYTES = 32 * 1024 * 1024;

/**
 * An MP4 whose moov comes first but is longer than the first read (hours of video: a 3-hour
 * 1080p file's sample table is about 5 MB): the rest of it is fetched, and ftyp+moov probed.
 */
async function probeLongMoov(ctx: SourceContext, head: Head, url: string): Promise<ProbeResult | null> {
  const boxes = topLevelBoxes(head.bytes);
  const ftyp = boxes[0];
  const moov = boxes.find((b) => b.type === "moov");
  if (ftyp?.type !== "ftyp" || !moov || head.complete || !Number.isFinite(moov.size) || moov.size > MOOV_MAX_BYTES) return null;
  const moovEnd = moov.start + moov.size;
  if (moovEnd <= head.bytes.length) return null;
  const rest = await fetchHead(ctx, { url, range: { start: head.bytes.length, end: moovEnd - 1 } }, moovEnd - head.bytes.length);
  if (head.bytes.length + rest.bytes.length < moovEnd) return null;
  const index = Buffer.concat([head.bytes.subarray(ftyp.start, ftyp.start + ftyp.size), head.bytes.subarray(moov.start), rest.bytes]);
  return probeBuffer(ctx, index);
}

/**
 * An MP4 whose moov box sits after the media data: the first megabyte says nothing. Fetch the
 * moov from the end and probe ftyp+moov, which describes the whole file.
 */
async function probeMoovAtEnd(ctx: SourceContext, head: Head, url: string): Promise<ProbeResult | null> {
  const boxes = topLevelBoxes(head.bytes);
  const ftyp = boxes[0];
  const mdat = boxes.find((b) => b.type === "mdat");
  if (ftyp?.type !== "ftyp" || !mdat || head.total === null) return null;
  const moovStart = mdat.start + mdat.size;
  if (!Number.isFinite(moovStart) || moovStart >= head.total || head.total - moovStart > MOOV_MAX_BYTES) return null;
  const tail = await fetchHead(ctx, { url, range: { start: moovStart, end: head.total - 1 } }, head.total - moovStart);
  const moov = topLevelBoxes(tail.bytes).find((b) => b.type === "moov");
  if (!moov || moov.start + moov.size > tail.bytes.length) return null;
  const index = Buffer.concat([head.bytes.subarray(ftyp.start, ftyp.start + ftyp.size), tail.bytes.subarray(moov.start, moov.start + moov.size)]);
  return probeBuffer(ctx, index);
}

async function resolveDirect(ctx: SourceContext, head: Head, url: string): Promise<{ stream: UpstreamStream; durationSeconds: number }> {
  let probe: ProbeResult;
  // ffmpeg reads an MP4 from a pipe only when its moov comes before the media data
  const boxes = topLevelBoxes(head.bytes);
  const mdatAt = boxes.findIndex((b) => b.type === "mdat");
  const moovAt = boxes.findIndex((b) => b.type === "moov");
  let pipeSafe = !(boxes[0]?.type === "ftyp" && mdatAt >= 0 && (moovAt < 0 || moovAt > mdatAt));
  try {
    probe = await probeBuffer(ctx, head.bytes);
  } catch (err) {
    if (!(isEngineError(err) && err.code === "video.no_formats")) throw err;
    const whole = await probeLongMoov(ctx, head, url);
    if (whole) probe = whole;
    else {
      const fromEnd = await probeMoovAtEnd(ctx, head, url);
      if (!fromEnd) throw err;
      probe = fromEnd;
      // ffmpeg would need to seek to that moov: this file can only be passed through
      pipeSafe = false;
    }
  }
  const v = probe.streams.find((x) => x.kind === "video");
  const a = probe.streams.find((x) => x.kind === "audio");
  if (!v && !a) throw new EngineError("video.no_formats", { detail: `${url}: no audio or video` });
  const total = head.complete ? head.bytes.length : head.total;
  let durationSeconds = probe.durationSeconds ?? 0;
  // a probe of part of a file computes its bitrate over that part; only a whole-file figure counts
  let bitrate = pipeSafe ? (probe.bitrate ?? undefined) : undefined;
  // a probe of the first megabyte only knows the duration when the header says it (MP4, WebM);
  // for MP3/ADTS/TS the whole length over the bitrate is the honest figure
  if (!probe.durationSeconds && total && bitrate) durationSeconds = (total * 8) / bitrate;
  if ((!bitrate || head.complete === false) && total && durationSeconds > 0) bitrate = Math.round((total * 8) / durationSeconds);
  const stream = applyProbe(
    {
      id: "direct",
      kind: "progressive",
      url,
      transport: { type: "direct" },
      container: containerOf(probe, !v),
      mimeType: head.contentType || undefined,
      contentLength: total,
      bitrate,
      ...(pipeSafe ? {} : { pipeSafe: false }),
    },
    probe,
  );
  return { stream, durationSeconds: Math.round(durationSeconds * 1000) / 1000 };
}

export async function resolveGenericMedia(url: string, ctx: SourceContext): Promise<ResolvedMedia> {
  let kind = kindFromPath(url);
  let text: string | null = null;
  let finalUrl: string;
  let lastModified: string | null = null;
  let head: Head | null = null;

  if (kind === "hls" || kind === "dash") {
    const r = await fetchText(ctx, url);
    text = r.text;
    finalUrl = r.url;
  } else {
    head = await fetchHead(ctx, url, PROBE_BYTES, describingBytes);
    finalUrl = head.url;
    lastModified = head.lastModified;
    kind = kindFromHead(head);
    if (kind !== "media") {
      text = head.complete ? head.bytes.toString("utf8") : (await fetchText(ctx, url)).text;
    }
  }

  let streams: UpstreamStream[];
  let durationSeconds: number;
  let captions: CaptionTrack[] = [];
  if (kind === "hls") {
    ({ streams, durationSeconds, captions = [] } = await resolveHls(ctx, text!, finalUrl));
  } else if (kind === "dash") {
    ({ streams, durationSeconds } = resolveDash(text!, finalUrl));
  } else {
    const direct = await resolveDirect(ctx, head!, finalUrl);
    streams = [direct.stream];
    durationSeconds = direct.durationSeconds;
  }
  if (streams.length === 0) throw new EngineError("video.no_formats", { detail: url });

  return {
    platform: "generic",
    sourceUrl: url,
    details: detailsFor(url, durationSeconds, lastModified),
    streams,
    thumbnails: [],
    captions,
  };
}

export const genericSource: SourceAdapter = {
  platform: "generic",
  matches(link: ParsedLink) {
    return link.kind === "generic";
  },
  async resolve(link, ctx) {
    try {
      return { ok: true, media: await resolveGenericMedia(link.url, ctx) };
    } catch (err) {
      // a message of its own (a refusal that says why) reaches the visitor
      if (isEngineError(err)) return { ok: false, code: err.code, detail: err.detail, ...(err.message !== ERRORS[err.code].message ? { message: err.message } : {}) };
      throw err;
    }
  },
};
