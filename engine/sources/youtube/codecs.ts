/**
 * Normalises the codec strings of a MIME type (`video/mp4; codecs="avc1.640028"`) to the codec
 * families the format catalogue reasons about (h264, vp9, av1, aac, opus, …).
 */
export interface ParsedMime {
  type: string;
  vcodec?: string;
  acodec?: string;
}

const VIDEO: Array<[RegExp, string]> = [
  [/^(avc1|avc3)/i, "h264"],
  [/^(vp09|vp9)/i, "vp9"],
  [/^vp8/i, "vp8"],
  [/^av01/i, "av1"],
  [/^(hev1|hvc1)/i, "h265"],
];
const AUDIO: Array<[RegExp, string]> = [
  [/^mp4a\.40/i, "aac"],
  [/^mp4a\.6b|^mp3/i, "mp3"],
  [/^opus/i, "opus"],
  [/^vorbis/i, "vorbis"],
  [/^ec-3/i, "eac3"],
  [/^ac-3/i, "ac3"],
  [/^mp4a/i, "aac"],
];

export function parseMimeType(mime: string): ParsedMime {
  const [typePart = "", ...params] = mime.split(";");
  const result: ParsedMime = { type: typePart.trim().toLowerCase() };
  const codecsParam = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith("codecs="));
  const codecs = codecsParam ? codecsParam.slice("codecs=".length).replace(/"/g, "").split(",").map((c) => c.trim()) : [];
  for (const codec of codecs) {
    const v = VIDEO.find(([re]) => re.test(codec));
    if (v && !result.vcodec) {
      result.vcodec = v[1];
      continue;
    }
    const a = AUDIO.find(([re]) => re.test(codec));
    if (a && !result.acodec) result.acodec = a[1];
  }
  return result;
}

export function containerOf(mimeType: string): "mp4" | "webm" | "m4a" | "unknown" {
  const type = mimeType.split(";")[0]!.trim().toLowerCase();
  if (type === "video/mp4") return "mp4";
  if (type === "audio/mp4") return "m4a";
  if (type === "video/webm" || type === "audio/webm") return "webm";
  return "unknown";
}
