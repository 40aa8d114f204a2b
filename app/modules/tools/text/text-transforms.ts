/**
 * The text tool's transforms: pure functions on strings, run in the browser (the text never
 * leaves the page). Word, sentence and character boundaries come from Intl.Segmenter, so
 * accented letters, CJK text and emoji count the way a reader would count them.
 */

/** Average silent reading speed used for the reading-time estimate (words per minute). */
export const READING_WORDS_PER_MINUTE = 200;

export interface TextCounts {
  characters: number;
  charactersNoSpaces: number;
  words: number;
  lines: number;
  sentences: number;
  /** whole seconds at READING_WORDS_PER_MINUTE, rounded up */
  readingSeconds: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: "sentence" });

function wordsOf(text: string): string[] {
  return [...wordSegmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
}

export function countText(text: string): TextCounts {
  const chars = [...graphemes.segment(text)].map((s) => s.segment);
  const words = wordsOf(text).length;
  return {
    characters: chars.length,
    charactersNoSpaces: chars.filter((c) => !/^\s+$/u.test(c)).length,
    words,
    lines: text === "" ? 0 : text.split(/\r\n|\r|\n/).length,
    sentences: [...sentenceSegmenter.segment(text)].filter((s) => /[\p{L}\p{N}]/u.test(s.segment)).length,
    readingSeconds: Math.ceil((words * 60) / READING_WORDS_PER_MINUTE),
  };
}

/** "45 sec", "3 min", "1 min 30 sec": the reading time as people say it. */
export function formatReadingTime(seconds: number): string {
  if (seconds < 60) return `${seconds} sec`;
  const min = Math.floor(seconds / 60);
  const sec = seconds % 60;
  return sec === 0 ? `${min} min` : `${min} min ${sec} sec`;
}

export type CaseStyle = "upper" | "lower" | "title" | "sentence" | "camel" | "snake" | "kebab";

export const CASE_LABELS: Record<CaseStyle, string> = {
  upper: "UPPER CASE",
  lower: "lower case",
  title: "Title Case",
  sentence: "Sentence case",
  camel: "camelCase",
  snake: "snake_case",
  kebab: "kebab-case",
};

const capitalize = (w: string) => (w ? w.charAt(0).toLocaleUpperCase() + w.slice(1) : w);

/** Identifier words: split on anything not a letter or digit, and on lowerUpper / ABCWord boundaries. */
function identifierWords(text: string): string[] {
  return text
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => w.toLocaleLowerCase());
}

export function convertCase(text: string, style: CaseStyle): string {
  switch (style) {
    case "upper":
      return text.toLocaleUpperCase();
    case "lower":
      return text.toLocaleLowerCase();
    case "title":
      // every word-like segment gets a capital, the rest of the word is lower case
      return [...wordSegmenter.segment(text.toLocaleLowerCase())].map((s) => (s.isWordLike ? capitalize(s.segment) : s.segment)).join("");
    case "sentence":
      // a capital at the start, after sentence-ending punctuation and after a line break
      return text.toLocaleLowerCase().replace(/(^|[.!?…]\s+|\n\s*)(\p{L})/gu, (_, lead: string, c: string) => lead + c.toLocaleUpperCase());
    case "camel":
      return identifierWords(text)
        .map((w, i) => (i === 0 ? w : capitalize(w)))
        .join("");
    case "snake":
      return identifierWords(text).join("_");
    case "kebab":
      return identifierWords(text).join("-");
  }
}

/** A URL slug: ASCII letters and digits joined by single hyphens, accents folded ("Crème Brûlée!" → "creme-brulee"). */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export type ReplaceResult = { ok: true; text: string; count: number } | { ok: false; message: string };

export interface ReplaceOptions {
  regex: boolean;
  caseSensitive: boolean;
}

/** Longest pattern accepted: regular expressions run on the page's thread. */
export const MAX_PATTERN_LENGTH = 500;

/**
 * Replaces every match. In regex mode `$1`, `$<name>` and `$&` in the replacement refer to the
 * match; in plain mode the replacement is taken literally.
 */
export function findAndReplace(text: string, find: string, replacement: string, opts: ReplaceOptions): ReplaceResult {
  if (find === "") return { ok: false, message: "Enter the text to find." };
  if (find.length > MAX_PATTERN_LENGTH) return { ok: false, message: `The search text is too long (at most ${MAX_PATTERN_LENGTH} characters).` };
  let pattern: RegExp;
  try {
    const source = opts.regex ? find : find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    pattern = new RegExp(source, `g${opts.caseSensitive ? "" : "i"}u`);
  } catch (e) {
    return { ok: false, message: `Invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, "")}` };
  }
  const count = [...text.matchAll(pattern)].length;
  // plain mode takes the replacement literally: a function result is never $-expanded
  const out = opts.regex ? text.replace(pattern, replacement) : text.replace(pattern, () => replacement);
  return { ok: true, text: out, count };
}

export type LineOperation = "sort-asc" | "sort-desc" | "dedupe" | "trim" | "remove-empty" | "reverse";

export const LINE_OPERATION_LABELS: Record<LineOperation, string> = {
  "sort-asc": "Sort A to Z",
  "sort-desc": "Sort Z to A",
  dedupe: "Remove duplicates",
  trim: "Trim spaces",
  "remove-empty": "Remove empty lines",
  reverse: "Reverse order",
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

export function transformLines(text: string, op: LineOperation): string {
  const lines = text.split(/\r\n|\r|\n/);
  switch (op) {
    case "sort-asc":
      return [...lines].sort(collator.compare).join("\n");
    case "sort-desc":
      return [...lines].sort((a, b) => collator.compare(b, a)).join("\n");
    case "dedupe":
      return [...new Set(lines)].join("\n");
    case "trim":
      return lines.map((l) => l.trim()).join("\n");
    case "remove-empty":
      return lines.filter((l) => l.trim() !== "").join("\n");
    case "reverse":
      return [...lines].reverse().join("\n");
  }
}
