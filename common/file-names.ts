/**
 * The one rule for the readable part of a file name: used by the engine for every download
 * (`engine/formats.ts`) and by the "safe file name" text tool, so both give the same answer.
 * Dependency-free on purpose: it runs in the browser bundle and in the engine.
 */

/** Characters no common file system accepts, plus control characters. */
// eslint-disable-next-line no-control-regex
const UNSAFE_FILENAME = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;

/**
 * Bidirectional and invisible format controls: right-to-left override and embeddings (U+202A–E),
 * isolates (U+2066–9), marks (U+200E/F, U+061C), zero-width characters and joiners (U+200B–D,
 * U+2060–4), deprecated format controls (U+206A–F), U+180E and the BOM. In a file name they can
 * make "clip\u202E4pm.exe" display as "clipexe.mp4", so no download name keeps them.
 */
const INVISIBLE_CONTROLS = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/** Longest readable part kept, in code points. */
export const MAX_FILE_TITLE_LENGTH = 120;

/** Removes bidi and invisible format controls (see INVISIBLE_CONTROLS). */
export function stripInvisibleControls(name: string): string {
  return name.replace(INVISIBLE_CONTROLS, "");
}

/**
 * A title made safe for a file name: invisible controls and characters file systems refuse are
 * dropped, runs of white space become one space, leading dots go (no hidden files), and the
 * result is cut to 120 code points. Returns "" when nothing is left: the caller picks a fallback.
 */
export function safeFileTitle(title: string): string {
  const cleaned = stripInvisibleControls(title)
    .replace(UNSAFE_FILENAME, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  return [...cleaned].slice(0, MAX_FILE_TITLE_LENGTH).join("").trim();
}
