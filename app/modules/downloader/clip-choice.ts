/**
 * The picker's clip (issue 33 §1): the start and end a visitor typed, checked in the browser with
 * the server's own rules (common/clip-time.ts) so a mistake is said next to the field before any
 * request, and the share of the file a clip is, for the size shown.
 */
import { formatByteSize } from "#common/byte-units.ts";
import { formatClipTime, parseClipTime } from "#common/clip-time.ts";

export interface ClipChoice {
  /** as typed: "", "90", "1:30", "1:02:03" */
  start: string;
  end: string;
  exact: boolean;
}

export const NO_CLIP: ClipChoice = { start: "", end: "", exact: false };

/** What the API is sent: only the bounds given (none: the whole file). */
export interface ClipRequest {
  start?: number;
  end?: number;
  exact?: true;
}

export type ClipCheck = { ok: true; clip: ClipRequest | null; start: number; end: number } | { ok: false; field: "start" | "end"; message: string };

/** Checks a typed clip against the video's length (0 = unknown). */
export function checkClip(choice: ClipChoice, durationSeconds: number): ClipCheck {
  const typedStart = choice.start.trim();
  const typedEnd = choice.end.trim();
  const start = typedStart === "" ? 0 : parseClipTime(typedStart);
  if (start === null) return { ok: false, field: "start", message: "Type the start as a time, like 1:02:03 or 90." };
  const end = typedEnd === "" ? durationSeconds : parseClipTime(typedEnd);
  if (end === null) return { ok: false, field: "end", message: "Type the end as a time, like 1:02:03 or 90." };
  if (typedStart === "" && typedEnd === "") return { ok: true, clip: null, start: 0, end: durationSeconds };
  const length = durationSeconds > 0 ? ` The video is ${formatClipTime(durationSeconds)} long.` : "";
  if (durationSeconds > 0 && start >= durationSeconds) return { ok: false, field: "start", message: `The start is past the end of the video.${length}` };
  // the server takes a second of rounding past the end as "to the end"
  if (durationSeconds > 0 && end > durationSeconds + 1) return { ok: false, field: "end", message: `The end is past the end of the video.${length}` };
  if (typedEnd !== "" && end <= start) return { ok: false, field: "end", message: "The end must come after the start." };
  const clip: ClipRequest = {};
  if (typedStart !== "") clip.start = start;
  if (typedEnd !== "") clip.end = end;
  if (choice.exact) clip.exact = true;
  return { ok: true, clip, start, end: Math.min(end, durationSeconds || end) };
}

/** The size a clip of a file of `bytes` is likely to be: always an estimate ("~"), null when unknown. */
export function clipSize(bytes: number | null, check: ClipCheck, durationSeconds: number): string | null {
  if (!check.ok || !check.clip || bytes === null || !(durationSeconds > 0)) return null;
  const share = Math.max(0, Math.min(1, (check.end - check.start) / durationSeconds));
  return formatByteSize(Math.max(1, Math.round(bytes * share)), true);
}

/**
 * The start to preview (GET /api/v1/frame): a start the visitor set that is a time inside the
 * video; null while the field is empty, not a time, or past the end (its mistake is said instead).
 */
export function previewStart(choice: ClipChoice, durationSeconds: number): number | null {
  const typed = choice.start.trim();
  if (typed === "") return null;
  const start = parseClipTime(typed);
  return start !== null && durationSeconds > 0 && start < durationSeconds ? start : null;
}

/** The address of the frame a clip starts with: the same for everyone, so a browser keeps it (docs/decisions/071). */
export function frameSrc(sourceUrl: string, seconds: number): string {
  return `/api/v1/frame?${new URLSearchParams({ url: sourceUrl, t: String(seconds) }).toString()}`;
}

/** The player's time as a field shows it: to the millisecond, inside the video ("Start here", "End here"). */
export function playerTimeText(seconds: number, durationSeconds: number): string {
  const inside = Math.max(0, durationSeconds > 0 ? Math.min(seconds, durationSeconds) : seconds);
  return formatClipTime(Math.round(inside * 1000) / 1000);
}
