/**
 * Clip times as the API and the picker take them (issue 33 §1, §7): seconds ("90", "90.5", 90) or
 * a clock reading ("1:30", "1:02:03", "1:02:03.5"). Kept to the millisecond, which is finer than
 * any frame.
 */

/** `h:mm:ss`, `m:ss` or `ss`, each with an optional fraction; minutes and seconds after a colon are two digits below 60 */
const CLOCK = /^(?:(\d{1,3}):)?(?:(\d{1,3}):)?(\d+(?:\.\d{1,3})?)$/;

/** The most a clip time may say: 100 hours (no source is longer; a bigger number is a typo). */
export const MAX_CLIP_SECONDS = 100 * 3600;

/** Seconds, or null when the text is not a time. */
export function parseClipTime(input: string | number): number | null {
  if (typeof input === "number") return Number.isFinite(input) && input >= 0 && input <= MAX_CLIP_SECONDS ? roundMs(input) : null;
  const text = input.trim();
  const m = CLOCK.exec(text);
  if (!m) return null;
  const [, a, b, s] = m;
  const seconds = Number(s);
  // "1:02:03": a = hours, b = minutes; "2:03": a = minutes
  const hours = b !== undefined ? Number(a) : 0;
  const minutes = b !== undefined ? Number(b) : a !== undefined ? Number(a) : 0;
  if (a !== undefined && (seconds >= 60 || !/^\d{2}(\.|$)/.test(s!))) return null;
  if (b !== undefined && (minutes >= 60 || b.length !== 2)) return null;
  const total = hours * 3600 + minutes * 60 + seconds;
  return total <= MAX_CLIP_SECONDS ? roundMs(total) : null;
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** "1:02:03", "2:03", "0:05.5": how a clip time is shown back (file names, messages). */
export function formatClipTime(seconds: number): string {
  // in whole milliseconds first, so 59.9996 reads 1:00, never 0:59.1000
  const ms = Math.round(seconds * 1000);
  const whole = Math.floor(ms / 1000);
  const fraction = ms % 1000;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const tail = fraction > 0 ? `.${String(fraction).padStart(3, "0").replace(/0+$/, "")}` : "";
  const ss = `${String(s).padStart(2, "0")}${tail}`;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}
