/**
 * Parses the subtitle files other platforms serve (what yt-dlp lists for them) into cues: WebVTT
 * (`WEBVTT` header; blocks of an optional id, `00:01.000 --> 00:02.000 settings` and text with
 * `<c>`, `<v Name>` or `<00:00:01.500>` tags) and SubRip (a number, `00:00:01,000 --> …`, text
 * with `<i>` or `{\an8}` tags). Both are blocks separated by blank lines.
 */
import type { Cue } from "./parse-timedtext.ts";

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}(?:[.,]\d{1,3})?)/;

/** "01:02:03.450", "02:03,45" or "02:03" → milliseconds */
function clockMs(stamp: string): number {
  const [clock, frac = ""] = stamp.split(/[.,]/);
  const parts = clock!.split(":").map(Number);
  const seconds = parts.reduce((total, n) => total * 60 + n, 0);
  return seconds * 1000 + (frac ? Math.round(Number(`0.${frac}`) * 1000) : 0);
}

/** True when the body is a WebVTT or SubRip file rather than YouTube's json3 or XML. */
export function isCueFile(body: string): boolean {
  return /^WEBVTT(?:[ \t\r\n]|$)/.test(body) || /^\d+[ \t]*\r?\n[^\n]*-->/.test(body);
}

/**
 * Cue blocks → cues; a block without a timing line (the header, NOTE, STYLE, REGION) is skipped.
 * `decode` turns the text's entities and tags into plain text.
 */
export function parseCueFile(body: string, decode: (text: string) => string): Cue[] {
  const cues: Cue[] = [];
  const blocks = body.replace(/\r\n?/g, "\n").split(/\n[ \t]*\n/);
  for (const block of blocks) {
    const lines = block.split("\n");
    const at = lines.findIndex((line) => TIMING.test(line));
    if (at < 0 || /^NOTE\b/.test(lines[0] ?? "")) continue;
    const [, start, end] = TIMING.exec(lines[at]!)!;
    const text = lines
      .slice(at + 1)
      .map((line) => decode(line.replace(/\{\\[^}]*\}/g, "").replace(/<[^>]*>/g, "")).replace(/[ \t\u00a0]+/g, " ").trim())
      .filter(Boolean)
      .join("\n");
    if (text) cues.push({ startMs: clockMs(start!), endMs: clockMs(end!), text });
  }
  return cues;
}
