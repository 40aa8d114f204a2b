/**
 * DASH: every Representation becomes a stream. SegmentTemplate ($Number$/$Time$) and SegmentList
 * become segment lists (with byte ranges where the manifest gives them); SegmentBase (one file
 * per representation, indexed by a sidx) is simply that file, read directly.
 */
import { parse } from "mpd-parser";
import { EngineError } from "../../errors.ts";
import type { SegmentRef, UpstreamStream } from "../../types.ts";
import { parseCodecs } from "./codecs.ts";
import { checkDashText, checkPlaylistSegments, createSegmentBudget } from "./segment-limits.ts";

interface MpdByteRange {
  length: number;
  offset: number;
}
interface MpdSegment {
  resolvedUri: string;
  duration?: number;
  byterange?: MpdByteRange;
  map?: { resolvedUri: string; byterange?: MpdByteRange };
}
interface MpdPlaylist {
  attributes: {
    NAME?: string;
    BANDWIDTH?: number;
    CODECS?: string;
    RESOLUTION?: { width: number; height: number };
    "FRAME-RATE"?: number;
  };
  resolvedUri?: string;
  segments: MpdSegment[];
  sidx?: { resolvedUri: string; byterange?: MpdByteRange; map?: { resolvedUri: string } };
  contentProtection?: unknown;
}
interface MpdGroupEntry {
  language?: string;
  /** the AdaptationSet with Role "main" (else the first): the original audio */
  default?: boolean;
  playlists: MpdPlaylist[];
}
interface MpdManifest {
  duration?: number;
  playlists: MpdPlaylist[];
  mediaGroups?: { AUDIO?: Record<string, Record<string, MpdGroupEntry>> };
  minimumUpdatePeriod?: number;
}

export interface DashResult {
  streams: UpstreamStream[];
  durationSeconds: number;
}

const toRange = (r: MpdByteRange | undefined) => (r ? { start: r.offset, end: r.offset + r.length - 1 } : undefined);
const ref = (url: string, range: { start: number; end: number } | undefined, durationSeconds?: number): SegmentRef => ({
  url,
  ...(range ? { range } : {}),
  ...(durationSeconds !== undefined ? { durationSeconds } : {}),
});

export function isDynamicMpd(text: string): boolean {
  return /<MPD[^>]*\btype\s*=\s*["']dynamic["']/i.test(text);
}

function streamOf(p: MpdPlaylist, id: string, kind: UpstreamStream["kind"], language?: string): UpstreamStream | null {
  if (p.contentProtection) return null;
  const codecs = parseCodecs(p.attributes.CODECS);
  const base = {
    id,
    kind,
    vcodec: kind === "audio" ? undefined : codecs.vcodec,
    acodec: kind === "video" ? undefined : codecs.acodec,
    width: p.attributes.RESOLUTION?.width,
    height: p.attributes.RESOLUTION?.height,
    fps: p.attributes["FRAME-RATE"],
    bitrate: p.attributes.BANDWIDTH,
    ...(language && language !== "und" ? { language } : {}),
  };
  const isWebm = /webm/i.test(p.attributes.CODECS ?? "") || codecs.vcodec === "vp9" || codecs.acodec === "opus" || codecs.acodec === "vorbis";
  const container: UpstreamStream["container"] = isWebm ? "webm" : kind === "audio" ? "m4a" : "mp4";
  if (p.segments.length === 0) {
    // SegmentBase: the whole representation is one indexed file
    const url = p.sidx?.resolvedUri ?? p.resolvedUri;
    if (!url) return null;
    return { ...base, url, transport: { type: "direct" }, container };
  }
  const first = p.segments[0]!;
  checkPlaylistSegments(p.segments.length, p.resolvedUri ?? first.resolvedUri);
  const init = first.map ? ref(first.map.resolvedUri, toRange(first.map.byterange)) : undefined;
  const segments = p.segments.map((s) => ref(s.resolvedUri, toRange(s.byterange), s.duration));
  return {
    ...base,
    url: p.resolvedUri ?? first.resolvedUri,
    transport: { type: "segments", protocol: "dash", ...(init ? { init } : {}), segments },
    container,
  };
}

export function resolveDash(text: string, manifestUrl: string): DashResult {
  if (isDynamicMpd(text)) throw new EngineError("video.live", { detail: `dynamic MPD ${manifestUrl}` });
  checkDashText(text, manifestUrl);
  let m: MpdManifest;
  try {
    m = parse(text, { manifestUri: manifestUrl }) as unknown as MpdManifest;
  } catch (err) {
    throw new EngineError("video.no_formats", { cause: err, detail: `unreadable MPD ${manifestUrl}: ${(err as Error).message}` });
  }
  const streams: UpstreamStream[] = [];
  for (const [i, p] of m.playlists.entries()) {
    const codecs = parseCodecs(p.attributes.CODECS);
    // a Representation carrying both (rare in DASH) is progressive
    const kind = codecs.vcodec && codecs.acodec ? "progressive" : "video";
    const s = streamOf(p, `dash-v${i}`, kind);
    if (s) streams.push(s);
  }
  let a = 0;
  for (const group of Object.values(m.mediaGroups?.AUDIO ?? {})) {
    for (const [label, entry] of Object.entries(group)) {
      for (const p of entry.playlists) {
        const s = streamOf(p, `dash-a${a++}`, "audio", entry.language ?? label);
        // another AdaptationSet's language is a choice beside the main one, never the default (docs/decisions/067)
        if (s && entry.default === false) s.audioDefault = false;
        if (s) streams.push(s);
      }
    }
  }
  if (streams.length === 0) throw new EngineError("video.no_formats", { detail: `no playable representations in ${manifestUrl}` });
  const budget = createSegmentBudget(manifestUrl);
  for (const s of streams) if (s.transport.type === "segments") budget.take(s.transport.segments.length);
  const fromSegments = Math.max(
    0,
    ...streams.map((s) => (s.transport.type === "segments" ? s.transport.segments.reduce((n, seg) => n + (seg.durationSeconds ?? 0), 0) : 0)),
  );
  return { streams, durationSeconds: m.duration && m.duration > 0 ? m.duration : fromSegments };
}
