/**
 * Cues → the three transcript files: clean TXT (no timestamps, one flowing text, a new
 * paragraph after a pause), SRT and WebVTT (cue ends clamped to the next start, because ASR
 * tracks overlap each line with the next and players would show both).
 */
import type { Cue } from "./parse-timedtext.ts";

/** A pause this long between two cues starts a new paragraph in the TXT file. */
const PARAGRAPH_GAP_MS = 3000;

export function toTxt(cues: Cue[]): string {
  const paragraphs: string[][] = [];
  let lastEnd = -Infinity;
  for (const cue of cues) {
    if (paragraphs.length === 0 || cue.startMs - lastEnd >= PARAGRAPH_GAP_MS) paragraphs.push([]);
    paragraphs[paragraphs.length - 1]!.push(cue.text.replace(/\n+/g, " "));
    lastEnd = Math.max(lastEnd, cue.endMs);
  }
  const text = paragraphs.map((p) => p.join(" ").replace(/\s+/g, " ").trim()).filter(Boolean);
  return text.length ? `${text.join("\n\n")}\n` : "";
}

/** Each cue's end: its own, two seconds when it has none, never past the next cue's start. */
export function timed(cues: readonly Cue[]): Cue[] {
  return cues.map((cue, i) => {
    const next = cues[i + 1];
    let endMs = cue.endMs > cue.startMs ? cue.endMs : cue.startMs + 2000;
    if (next && next.startMs > cue.startMs && endMs > next.startMs) endMs = next.startMs;
    return { ...cue, endMs };
  });
}

function stamp(ms: number, sep: "," | "."): string {
  const total = Math.max(0, Math.round(ms));
  const h = Math.floor(total / 3_600_000);
  const m = Math.floor((total % 3_600_000) / 60_000);
  const s = Math.floor((total % 60_000) / 1000);
  const frac = total % 1000;
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${p(h)}:${p(m)}:${p(s)}${sep}${p(frac, 3)}`;
}

export function toSrt(cues: Cue[]): string {
  return timed(cues)
    .map((cue, i) => `${i + 1}\n${stamp(cue.startMs, ",")} --> ${stamp(cue.endMs, ",")}\n${cue.text}\n`)
    .join("\n");
}

function escapeVtt(text: string): string {
  // "-->" inside a cue would end the timing line; & and < start entities/tags in WebVTT.
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function toVtt(cues: Cue[]): string {
  const body = timed(cues)
    .map((cue) => `${stamp(cue.startMs, ".")} --> ${stamp(cue.endMs, ".")}\n${escapeVtt(cue.text)}\n`)
    .join("\n");
  return `WEBVTT\n\n${body}`;
}
