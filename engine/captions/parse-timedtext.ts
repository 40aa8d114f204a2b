/**
 * Parses YouTube caption tracks ("timedtext") into cues. Three shapes occur: json3
 * (`{"events":[{tStartMs,dDurationMs,segs:[{utf8}]}]}`, what we ask for), srv3 XML
 * (`<timedtext format="3"><body><p t="ms" d="ms">…<s>word</s></p>`, the ANDROID default) and the
 * older srv1 XML (`<transcript><text start="s" dur="s">…</text>`, text often double-escaped).
 */
export interface Cue {
  startMs: number;
  endMs: number;
  /** plain text; line breaks inside a cue kept as "\n" */
  text: string;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/** Decodes HTML/XML entities; run twice because srv1 escapes its text a second time ("&amp;#39;"). */
export function decodeEntities(text: string): string {
  const once = (s: string) =>
    s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, ent: string) => {
      if (ent[0] === "#") {
        const code = ent[1] === "x" || ent[1] === "X" ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match;
      }
      return NAMED[ent.toLowerCase()] ?? match;
    });
  return once(once(text));
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

function parseXml(xml: string): Cue[] {
  const cues: Cue[] = [];
  // srv3: <p t="ms" d="ms">…</p>
  for (const m of xml.matchAll(/<p\b([^>]*)>([\s\S]*?)<\/p>/g)) {
    const startMs = Number(attr(m[1]!, "t") ?? 0);
    const durMs = Number(attr(m[1]!, "d") ?? 0);
    const text = cleanText(decodeEntities(m[2]!.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, "")));
    if (text) cues.push({ startMs, endMs: startMs + durMs, text });
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

/** Any of the three shapes → cues in time order. */
export function parseTimedText(body: string): Cue[] {
  const trimmed = body.trimStart();
  let cues: Cue[];
  if (trimmed.startsWith("{")) cues = parseJson3(JSON.parse(trimmed) as Json3);
  else if (trimmed.startsWith("<")) cues = parseXml(trimmed);
  else cues = [];
  return cues.sort((a, b) => a.startMs - b.startMs);
}
