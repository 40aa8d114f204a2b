/**
 * Parses YouTube caption tracks ("timedtext") into cues. Three shapes occur: json3
 * (`{"events":[{tStartMs,dDurationMs,segs:[{utf8}]}]}`, what we ask for), srv3 XML
 * (`<timedtext format="3"><body><p t="ms" d="ms">…<s>word</s></p>`, the ANDROID default) and the
 * older srv1 XML (`<transcript><text start="s" dur="s">…</text>`, text often double-escaped).
 * Other platforms' tracks (through yt-dlp) add TTML (`<p begin="00:00:01.000" end="…">`),
 * WebVTT and SubRip (parse-cue-file.ts).
 */
import { isCueFile, parseCueFile } from "./parse-cue-file.ts";

export interface Cue {
  startMs: number;
  endMs: number;
  /** plain text; line breaks inside a cue kept as "\n" */
  text: string;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes HTML/XML entities once, as WebVTT and TTML escape their text. */
export function decodeEntitiesOnce(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, ent: string) => {
    if (ent[0] === "#") {
      const code = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
    }
    return NAMED[ent.toLowerCase()] ?? match;
  });
}

/** Decodes HTML/XML entities; run twice because srv1 escapes its text a second time ("&amp;#39;"). */
export function decodeEntities(text: string): string {
  return decodeEntitiesOnce(decodeEntitiesOnce(text));
}

function cleanText(raw: string): string {
  return raw
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter(Boolean)
    .join("\n");
}

interface Json3 {
  events?: Array<{ tStartMs?: number; dDurationMs?: number; aAppend?: number; segs?: Array<{ utf8?: string }> }>;
}

function parseJson3(body: Json3): Cue[] {
  const cues: Cue[] = [];
  for (const event of body.events ?? []) {
    if (!event.segs) continue; // window/style definitions carry no text
    const text = cleanText(event.segs.map((s) => s.utf8 ?? "").join(""));
    if (!text) continue; // ASR tracks send bare "\n" events to break lines
    const startMs = event.tStartMs ?? 0;
    cues.push({ startMs, endMs: startMs + (event.dDurationMs ?? 0), text });
  }
  return cues;
}

function attr(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
}

/** a TTML time: clock time ("00:00:01.160") or an offset ("1.5s", "1500ms") */
function ttmlMs(value: string): number {
  const offset = /^([\d.]+)(h|m|s|ms)$/.exec(value);
  if (offset) return Math.round(Number(offset[1]) * { h: 3_600_000, m: 60_000, s: 1000, ms: 1 }[offset[2] as "h" | "m" | "s" | "ms"]);
  const [h = 0, m = 0, s = 0] = value.split(":").map(Number);
  return Math.round(((h * 60 + m) * 60 + s) * 1000);
}

function parseXml(xml: string): Cue[] {
  const cues: Cue[] = [];
  // srv3: <p t="ms" d="ms">…</p>; TTML: <p begin="00:00:01.000" end="00:00:02.000">…</p>
  for (const m of xml.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const begin = attr(m[1]!, "begin");
    const ttml = begin !== undefined;
    const startMs = ttml ? ttmlMs(begin) : Number(attr(m[1]!, "t") ?? 0);
    const endAttr = attr(m[1]!, "end");
    const durAttr = attr(m[1]!, "dur");
    const endMs = ttml ? (endAttr ? ttmlMs(endAttr) : startMs + (durAttr ? ttmlMs(durAttr) : 0)) : startMs + Number(attr(m[1]!, "d") ?? 0);
    const markup = m[2]!.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, "");
    const text = cleanText(ttml ? decodeEntitiesOnce(markup) : decodeEntities(markup));
    if (text && Number.isFinite(startMs) && Number.isFinite(endMs)) cues.push({ startMs, endMs, text });
  }
  if (cues.length > 0) return cues;
  // srv1: <text start="s" dur="s">…</text>
  for (const m of xml.matchAll(/<text\b([^>]*)>([\s\S]*?)<\/text>/g)) {
    const startMs = Math.round(Number(attr(m[1]!, "start") ?? 0) * 1000);
    const durMs = Math.round(Number(attr(m[1]!, "dur") ?? 0) * 1000);
    const text = cleanText(decodeEntities(m[2]!.replace(/<[^>]+>/g, "")));
    if (text) cues.push({ startMs, endMs: startMs + durMs, text });
  }
  return cues;
}

/** Any of the shapes → cues in time order. */
export function parseTimedText(body: string): Cue[] {
  const trimmed = body.trimStart();
  let cues: Cue[];
  if (trimmed.startsWith("{")) cues = parseJson3(JSON.parse(trimmed) as Json3);
  else if (trimmed.startsWith("<")) cues = parseXml(trimmed);
  else if (isCueFile(trimmed)) cues = parseCueFile(trimmed, decodeEntitiesOnce);
  else cues = [];
  return cues.sort((a, b) => a.startMs - b.startMs);
}
