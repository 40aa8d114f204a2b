/**
 * Codec names as our plans speak them ("h264", "aac", …) from the RFC 6381 strings that HLS
 * `CODECS` and DASH `@codecs` carry, and from ffprobe's names.
 */

const VIDEO_PREFIXES: [RegExp, string][] = [
  [/^(avc1|avc3)\b/i, "h264"],
  [/^(hvc1|hev1)\b/i, "hevc"],
  [/^av01\b/i, "av1"],
  [/^(vp09|vp9)\b/i, "vp9"],
  [/^(vp08|vp8)\b/i, "vp8"],
];
const AUDIO_PREFIXES: [RegExp, string][] = [
  [/^mp4a\.40\.34\b/i, "mp3"],
  [/^mp4a\.6b\b/i, "mp3"],
  [/^mp4a\b/i, "aac"],
  [/^opus\b/i, "opus"],
  [/^vorbis\b/i, "vorbis"],
  [/^(ac-3|ac3)\b/i, "ac3"],
  [/^(ec-3|eac3)\b/i, "eac3"],
  [/^flac\b/i, "flac"],
  [/^mp3\b/i, "mp3"],
];

export interface CodecSplit {
  vcodec?: string;
  acodec?: string;
}

/** Splits a CODECS list ("avc1.4d401f,mp4a.40.2") into the video and audio codec families. */
export function parseCodecs(codecs: string | undefined | null): CodecSplit {
  const out: CodecSplit = {};
  if (!codecs) return out;
  for (const raw of codecs.split(",")) {
    const c = raw.trim();
    const v = VIDEO_PREFIXES.find(([re]) => re.test(c));
    if (v && !out.vcodec) out.vcodec = v[1];
    const a = AUDIO_PREFIXES.find(([re]) => re.test(c));
    if (a && !out.acodec) out.acodec = a[1];
  }
  return out;
}

/** ffprobe's codec names are already the families, except for a few spellings. */
export function normaliseProbeCodec(name: string): string {
  const n = name.toLowerCase();
  if (n === "mp3float" || n === "mp3") return "mp3";
  if (n === "h265") return "hevc";
  return n;
}
