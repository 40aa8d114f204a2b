/**
 * HLS: a master playlist becomes one stream per variant (plus one per audio rendition with its
 * own playlist); a media playlist becomes one stream. Segments keep their byte ranges and the
 * EXT-X-MAP init section, so the stream runner fetches exactly what a player would.
 */
import { Parser } from "m3u8-parser";
import { mapLimit } from "#common/map-limit.ts";
import { EngineError } from "../../errors.ts";
import type { SegmentRef, UpstreamStream } from "../../types.ts";
import type { SourceContext } from "../types.ts";
import { parseCodecs } from "./codecs.ts";
import { fetchText } from "./fetch-bytes.ts";
import { checkPlaylistSegments, checkPlaylistText, createSegmentBudget } from "./segment-limits.ts";

interface M3u8ByteRange {
  length: number;
  offset: number;
}
interface M3u8Segment {
  uri: string;
  duration?: number;
  byterange?: M3u8ByteRange;
  map?: { uri: string; byterange?: M3u8ByteRange };
  key?: { method?: string };
}
interface M3u8Variant {
  uri: string;
  attributes: {
    BANDWIDTH?: number;
    "AVERAGE-BANDWIDTH"?: string | number;
    RESOLUTION?: { width: number; height: number };
    CODECS?: string;
    AUDIO?: string;
    "FRAME-RATE"?: number;
  };
}
interface M3u8Rendition {
  uri?: string;
  language?: string;
  default?: boolean;
  forced?: boolean;
}
export interface M3u8Manifest {
  playlists?: M3u8Variant[];
  mediaGroups?: { AUDIO?: Record<string, Record<string, M3u8Rendition>>; SUBTITLES?: Record<string, Record<string, M3u8Rendition>> };
  segments: M3u8Segment[];
  endList?: boolean;
  playlistType?: string;
}

export function parseM3u8(text: string): M3u8Manifest {
  const parser = new Parser();
  parser.push(text);
  parser.end();
  return parser.manifest as unknown as M3u8Manifest;
}

export function isMasterPlaylist(m: M3u8Manifest): boolean {
  return (m.playlists?.length ?? 0) > 0;
}

const toRange = (r: M3u8ByteRange | undefined) => (r ? { start: r.offset, end: r.offset + r.length - 1 } : undefined);

export interface MediaPlaylist {
  init?: SegmentRef;
  segments: SegmentRef[];
  durationSeconds: number;
  /** fMP4 segments (EXT-X-MAP) or MPEG-TS */
  container: "mp4" | "ts" | "aac" | "mp3";
}

/** Segments of a media playlist, with absolute URLs. Live and encrypted playlists are refused. */
export function mediaPlaylist(m: M3u8Manifest, baseUrl: string): MediaPlaylist {
  if (m.segments.length === 0) throw new EngineError("video.no_formats", { detail: `empty HLS playlist ${baseUrl}` });
  checkPlaylistSegments(m.segments.length, baseUrl);
  if (!m.endList && m.playlistType !== "VOD") {
    throw new EngineError("video.live", { detail: `HLS playlist without EXT-X-ENDLIST: ${baseUrl}` });
  }
  if (m.segments.some((s) => s.key && s.key.method && s.key.method !== "NONE")) {
    throw new EngineError("video.unavailable", { detail: `encrypted HLS segments: ${baseUrl}` });
  }
  const maps = new Set(m.segments.map((s) => (s.map ? `${s.map.uri}|${s.map.byterange?.offset ?? ""}` : "")));
  if (maps.size > 1) {
    // a changing init section means a discontinuity our single-pipe remux cannot follow
    throw new EngineError("video.unavailable", { detail: `HLS playlist switches EXT-X-MAP: ${baseUrl}` });
  }
  const first = m.segments[0]!;
  const abs = (u: string) => new URL(u, baseUrl).href;
  const init = first.map ? withRange({ url: abs(first.map.uri) }, toRange(first.map.byterange)) : undefined;
  const segments = m.segments.map((s) => withRange({ url: abs(s.uri), durationSeconds: s.duration }, toRange(s.byterange)));
  const durationSeconds = Math.round(m.segments.reduce((n, s) => n + (s.duration ?? 0), 0) * 1000) / 1000;
  const path = new URL(segments[0]!.url).pathname.toLowerCase();
  const container = init ? "mp4" : path.endsWith(".aac") ? "aac" : path.endsWith(".mp3") ? "mp3" : path.match(/\.(m4s|mp4|m4a|cmf[va])$/) ? "mp4" : "ts";
  return { init, segments, durationSeconds, container };
}

function withRange(ref: SegmentRef, range: { start: number; end: number } | undefined): SegmentRef {
  return range ? { ...ref, range } : ref;
}

function transportOf(p: MediaPlaylist): UpstreamStream["transport"] {
  return { type: "segments", protocol: "hls", ...(p.init ? { init: p.init } : {}), segments: p.segments };
}

export interface HlsResult {
  streams: UpstreamStream[];
  durationSeconds: number;
}

const MAX_VARIANTS = 24;
/** media playlists fetched at once (short text requests, not counted by the per-host cap) */
const PLAYLIST_CONCURRENCY = 8;

/**
 * Resolves a master playlist: fetches every variant's and audio rendition's media playlist, all
 * at once (up to `PLAYLIST_CONCURRENCY`). `finish` (probing, when the master left codecs out)
 * runs on each stream as soon as its own playlist has arrived, while the others still load.
 */
export async function resolveHlsMaster(
  ctx: SourceContext,
  m: M3u8Manifest,
  masterUrl: string,
  finish: (s: UpstreamStream) => Promise<UpstreamStream> = async (s) => s,
): Promise<HlsResult> {
  const variants = (m.playlists ?? []).slice(0, MAX_VARIANTS);
  const audioGroups = m.mediaGroups?.AUDIO ?? {};
  const budget = createSegmentBudget(masterUrl);
  const load = async (url: string) => {
    const { text, url: finalUrl } = await fetchText(ctx, url);
    checkPlaylistText(text, finalUrl);
    const playlist = mediaPlaylist(parseM3u8(text), finalUrl);
    budget.take(playlist.segments.length);
    return playlist;
  };

  /** one job per stream, in the order the streams are listed: its playlist URL and how to build it */
  const jobs: Array<{ url: string; build: (p: MediaPlaylist) => UpstreamStream }> = [];

  // audio renditions with their own playlist become audio streams, once per URI
  const audioUrls = new Set<string>();
  for (const [groupId, group] of Object.entries(audioGroups)) {
    for (const [name, rendition] of Object.entries(group)) {
      if (!rendition.uri) continue;
      const url = new URL(rendition.uri, masterUrl).href;
      if (audioUrls.has(url)) continue;
      const id = `hls-audio-${audioUrls.size}`;
      audioUrls.add(url);
      const usedBy = variants.find((v) => v.attributes.AUDIO === groupId);
      jobs.push({
        url,
        build: (playlist) => ({
          id,
          kind: "audio",
          url,
          transport: transportOf(playlist),
          container: playlist.container === "mp4" ? "m4a" : playlist.container,
          acodec: parseCodecs(usedBy?.attributes.CODECS).acodec ?? (playlist.container === "mp3" ? "mp3" : undefined),
          language: rendition.language ?? name,
          audioName: name,
          // another language beside the group's DEFAULT=YES one is a choice, never the default (docs/decisions/067)
          ...(!rendition.default && Object.values(group).some((r) => r.default) ? { audioDefault: false } : {}),
        }),
      });
    }
  }

  for (const [i, v] of variants.entries()) {
    const url = new URL(v.uri, masterUrl).href;
    const codecs = parseCodecs(v.attributes.CODECS);
    const group = v.attributes.AUDIO ? audioGroups[v.attributes.AUDIO] : undefined;
    // the default rendition says where the variant's audio lives: with a URI it is a separate
    // playlist (the variant is video-only); without one it is muxed into the variant itself
    const renditions = group ? Object.values(group) : [];
    const chosen = renditions.find((r) => r.default) ?? renditions[0];
    const separateAudio = Boolean(chosen?.uri);
    const hasVideoCodec = codecs.vcodec !== undefined || v.attributes.RESOLUTION !== undefined;
    const kind: UpstreamStream["kind"] = separateAudio ? "video" : !hasVideoCodec && codecs.acodec ? "audio" : "progressive";
    const avg = Number(v.attributes["AVERAGE-BANDWIDTH"]);
    jobs.push({
      url,
      build: (playlist) => ({
        id: `hls-${i}`,
        kind,
        url,
        transport: transportOf(playlist),
        container: playlist.container === "mp4" && kind === "audio" ? "m4a" : playlist.container,
        vcodec: kind === "audio" ? undefined : codecs.vcodec,
        acodec: kind === "video" ? undefined : codecs.acodec,
        width: v.attributes.RESOLUTION?.width,
        height: v.attributes.RESOLUTION?.height,
        fps: v.attributes["FRAME-RATE"],
        bitrate: Number.isFinite(avg) && avg > 0 ? avg : v.attributes.BANDWIDTH,
      }),
    });
  }

  let durationSeconds = 0;
  // a stream's `finish` starts when its playlist is in and does not hold a playlist slot
  const finishing: Array<Promise<UpstreamStream>> = [];
  const known: UpstreamStream[] = [];
  await mapLimit(jobs, PLAYLIST_CONCURRENCY, async (job, i) => {
    const playlist = await load(job.url);
    durationSeconds = Math.max(durationSeconds, playlist.durationSeconds);
    const stream = job.build(playlist);
    known[i] = stream;
    const done = finish(stream);
    // awaited below; until then (or if another playlist fails first) a failure is not "unhandled"
    done.catch(() => undefined);
    finishing[i] = done;
  });
  // every playlist is in (segments known); the streams may still be probing for their codecs
  ctx.streamsKnown?.(known);
  return { streams: await Promise.all(finishing), durationSeconds };
}
