import { hashString } from "./generator/prng.ts";

/**
 * Premium articles (issue 31 §4). A premium article's introduction is for everyone; the rest is
 * for holders of the `premiumArticles` right (#common/plans.ts). The split is made on the server
 * and the rest is left out of the loader data and the HTML of anyone else: never hidden with CSS.
 */

/** The class of the element holding the premium part (named by the page's structured data). */
export const PREMIUM_CONTENT_CLASS = "premium-content";

/** One long-form generated article in this many is premium. */
export const GENERATED_PREMIUM_ONE_IN = 3;

/**
 * Whether a generated article is premium: a fixed share of the long-form ones, chosen by a hash
 * of the slug (stored and never changed), so the same article is always premium or always free.
 */
export function isGeneratedPremium(slug: string, longForm: boolean): boolean {
  return longForm && hashString(`vidfetch-premium:${slug}`) % GENERATED_PREMIUM_ONE_IN === 0;
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g;
const VOID_ELEMENTS = new Set(["br", "hr", "img", "wbr"]);

/**
 * The top-level elements of sanitised article HTML, each with the whitespace before it, so that
 * joining them gives the HTML back unchanged. Text outside any element stays with its neighbour.
 */
export function topLevelBlocks(html: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let blockStart = 0;
  for (const m of html.matchAll(TAG)) {
    const closing = m[1] === "/";
    const name = m[2]!.toLowerCase();
    const end = m.index + m[0].length;
    if (VOID_ELEMENTS.has(name) || m[0].endsWith("/>")) {
      if (depth > 0) continue;
    } else if (closing) {
      depth = Math.max(0, depth - 1);
      if (depth > 0) continue;
    } else {
      depth++;
      continue;
    }
    blocks.push(html.slice(blockStart, end));
    blockStart = end;
  }
  const tail = html.slice(blockStart);
  if (tail.trim() || blocks.length === 0) blocks.push(tail);
  else if (tail) blocks[blocks.length - 1] += tail;
  return blocks;
}

const textLength = (html: string) => html.replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim().length;

/** The introduction is at most this share of the text when it ends at the first heading… */
const MAX_HEADED_INTRO_SHARE = 0.5;
/** …and otherwise the first paragraphs up to about this share (at most two of them). */
const INTRO_SHARE = 0.25;
const INTRO_PARAGRAPHS = 2;

/**
 * An article body split into the introduction everyone reads and the rest: up to the first
 * top-level H2 when that is the first part of the text, else the first two paragraphs or about a
 * quarter. The introduction is never empty and, when the body has two parts or more, never all.
 */
export function splitIntroduction(html: string): { intro: string; rest: string } {
  const blocks = topLevelBlocks(html);
  if (blocks.length < 2) return { intro: html, rest: "" };
  const lengths = blocks.map(textLength);
  const total = lengths.reduce((a, b) => a + b, 0) || 1;
  const upTo = (k: number) => lengths.slice(0, k).reduce((a, b) => a + b, 0);
  const heading = blocks.findIndex((b) => /^\s*<h2\b/i.test(b));
  let k: number;
  if (heading >= 1 && upTo(heading) / total <= MAX_HEADED_INTRO_SHARE) {
    k = heading;
  } else {
    k = 0;
    let paragraphs = 0;
    while (k < blocks.length - 1 && paragraphs < INTRO_PARAGRAPHS && upTo(k) / total < INTRO_SHARE) {
      if (/^\s*<p\b/i.test(blocks[k]!)) paragraphs++;
      k++;
    }
    k = Math.max(k, 1);
  }
  return { intro: blocks.slice(0, k).join(""), rest: blocks.slice(k).join("") };
}

/** What a reader is sent of an article's body. */
export type ArticleBody =
  | { kind: "free"; html: string }
  /** a premium article for a reader holding the right: the whole text */
  | { kind: "premium"; introHtml: string; premiumHtml: string }
  /** a premium article for anyone else: the introduction only, and whether they are signed in */
  | { kind: "locked"; introHtml: string; signedIn: boolean };

export function articleBodyFor(article: { premium: boolean; contentHtml: string }, reader: { entitled: boolean; signedIn: boolean }): ArticleBody {
  if (!article.premium) return { kind: "free", html: article.contentHtml };
  const { intro, rest } = splitIntroduction(article.contentHtml);
  if (reader.entitled) return { kind: "premium", introHtml: intro, premiumHtml: rest };
  return { kind: "locked", introHtml: intro, signedIn: reader.signedIn };
}

/**
 * The paywalled-content fields of an article's structured data (Google's guidance for
 * subscription content): the page says which part is not free, so showing search engines only
 * the introduction is not cloaking. Free articles get none.
 */
export function premiumJsonLd(premium: boolean): Record<string, unknown> {
  if (!premium) return {};
  return {
    isAccessibleForFree: false,
    hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${PREMIUM_CONTENT_CLASS}` },
  };
}
