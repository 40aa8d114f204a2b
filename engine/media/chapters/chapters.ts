/**
 * Chapters (issue 33 §2): what resolve reports (`[{title, start, end}]`, seconds) and what the media
 * step writes into a file. YouTube's come from the `next` response's chapter markers (the player
 * bar's `chapterRenderer`s, or an engagement panel's `macroMarkersListItemRenderer`s) or, when there
 * are none, from timestamps in the full description, the way yt-dlp reads them; yt-dlp's own
 * `chapters` for its sources. A list is only chapters when it covers the video: the first starts at
 * 0, there are at least two, each starts after the one before and inside the duration (YouTube's
 * "Key moments", ten-second markers from the middle of a video, are not chapters).
 */

import type { Chapter } from "../../types.ts";

export type { Chapter };

/** the longest chapter title kept (a description line can be anything) */
const MAX_TITLE = 120;
/** the most chapters kept (YouTube allows about 100; a description could list thousands of lines; ffmpeg takes them in one argument) */
const MAX_CHAPTERS = 250;

/** Starts and titles onto chapters ending where the next starts (the last at the duration); null when they do not cover the video. */
export function chaptersOf(marks: ReadonlyArray<{ title: string; start: number }>, duration: number): Chapter[] | null {
  if (!(duration > 0) || marks.length < 2 || marks.length > MAX_CHAPTERS || marks[0]!.start !== 0) return null;
  for (let i = 1; i < marks.length; i++) {
    if (!(marks[i]!.start > marks[i - 1]!.start) || !(marks[i]!.start < duration)) return null;
  }
  return marks.map((m, i) => ({ title: cleanTitle(m.title), start: m.start, end: i + 1 < marks.length ? marks[i + 1]!.start : duration }));
}

function cleanTitle(title: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const t = title.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return t.length > MAX_TITLE ? t.slice(0, MAX_TITLE) : t;
}

/** "1:02:03", "2:30", "0:05" onto seconds; null for anything else. */
export function timestampSeconds(text: string): number | null {
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const [h, min, s] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (s >= 60 || (m[1] !== undefined && min >= 60)) return null;
  return h * 3600 + min * 60 + s;
}

const STAMP = String.raw`(?:\d+:)?\d{1,2}:\d{2}`;
/** a line that starts with a timestamp ("0:00 Intro", "0:00 - Intro", "[0:00] Intro") */
const LEADING = new RegExp(String.raw`^\s*[\[(]?(${STAMP})[\])]?\b\W*\s(.+?)\s*$`);
/** a line that ends with one ("Intro 0:00", "Intro - (0:00)") */
const TRAILING = new RegExp(String.raw`^\s*(.+?)\W*\s[\[(]?(${STAMP})[\])]?\s*$`);

/**
 * Chapters from a description: the lines that start with a timestamp or, when those are not
 * chapters, the lines that end with one. Other lines are skipped, so a list may sit anywhere in
 * the text; a list whose times go back, or that does not start at 0:00, is not chapters.
 */
export function chaptersFromDescription(description: string, duration: number): Chapter[] | null {
  const lines = description.split(/\r?\n/);
  for (const [re, stampAt] of [[LEADING, 1], [TRAILING, 2]] as const) {
    const marks: Array<{ title: string; start: number }> = [];
    for (const line of lines) {
      const m = re.exec(line);
      const start = m ? timestampSeconds(m[stampAt]!) : null;
      if (m && start !== null) marks.push({ title: m[stampAt === 1 ? 2 : 1]!, start });
    }
    const chapters = chaptersOf(marks, duration);
    if (chapters) return chapters;
  }
  return null;
}

type Json = Record<string, unknown>;

function obj(v: unknown): Json | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** InnerTube text: `{simpleText}` or `{runs: [{text}]}`. */
function text(v: unknown): string {
  const o = obj(v);
  if (!o) return "";
  if (typeof o.simpleText === "string") return o.simpleText;
  return arr(o.runs).map((r) => String(obj(r)?.text ?? "")).join("");
}

/**
 * Chapters from InnerTube's `next` response: the player bar's chapter renderers
 * (`playerOverlays…multiMarkersPlayerBarRenderer.markersMap[].value.chapters[].chapterRenderer`,
 * start in milliseconds) first, then each engagement panel's macro markers (start as text, "8:45").
 */
export function chaptersFromNext(next: unknown, duration: number): Chapter[] | null {
  const root = obj(next);
  if (!root) return null;
  const bar = obj(obj(obj(obj(obj(root.playerOverlays)?.playerOverlayRenderer)?.decoratedPlayerBarRenderer)?.decoratedPlayerBarRenderer)?.playerBar);
  for (const entry of arr(obj(bar?.multiMarkersPlayerBarRenderer)?.markersMap)) {
    const marks = arr(obj(obj(entry)?.value)?.chapters).map((c) => {
      const r = obj(obj(c)?.chapterRenderer);
      return { title: text(r?.title), start: Number(r?.timeRangeStartMillis) / 1000 };
    });
    const chapters = chaptersOf(marks, duration);
    if (chapters) return chapters;
  }
  for (const panel of arr(root.engagementPanels)) {
    const list = obj(obj(obj(obj(panel)?.engagementPanelSectionListRenderer)?.content)?.macroMarkersListRenderer);
    const marks = arr(list?.contents).flatMap((c) => {
      const r = obj(obj(c)?.macroMarkersListItemRenderer);
      const start = r ? timestampSeconds(text(r.timeDescription)) : null;
      return r && start !== null ? [{ title: text(r.title), start }] : [];
    });
    const chapters = chaptersOf(marks, duration);
    if (chapters) return chapters;
  }
  return null;
}

/**
 * The chapters of a clip from `start` to `end` (seconds of the source): the ones it overlaps,
 * cut to it and shifted so the clip starts at 0; empty when fewer than one remains.
 */
export function clipChapters(chapters: readonly Chapter[], start = 0, end = Infinity): Chapter[] {
  return chapters
    .filter((c) => c.end > start && c.start < end)
    .map((c) => ({ title: c.title, start: Math.max(c.start, start) - start, end: Math.min(c.end, end) - start }))
    .filter((c) => c.end - c.start > 0.001);
}

/** ffmpeg's metadata file (`;FFMETADATA1`) with one `[CHAPTER]` per chapter, in milliseconds. */
export function ffmetadata(chapters: readonly Chapter[]): string {
  const escape = (s: string) => s.replace(/[=;#\\\n]/g, (c) => (c === "\n" ? " " : `\\${c}`));
  const body = chapters.map(
    (c) => `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${Math.round(c.start * 1000)}\nEND=${Math.round(c.end * 1000)}\ntitle=${escape(c.title)}\n`,
  );
  return `;FFMETADATA1\n${body.join("")}`;
}
