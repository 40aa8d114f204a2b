import { createRng, type Rng } from "./prng.ts";
import {
  AUTHORS,
  CLOSING_SENTENCES,
  CONTEXT_SENTENCES,
  DOWNLOAD_KEYWORDS,
  IMAGES,
  INTROS,
  SECTION_HEADINGS,
  TAG_PHRASES,
  TAGS,
  TIP_SENTENCES,
  TITLE_TEMPLATES,
  TOPIC_IMAGES,
  TOPICS,
  type Tag,
} from "./pools.ts";
import { slugWithSuffix } from "./slugify.ts";

/** Spec §9: 40 at first (30 long-form), 15 per new day (5 long-form), long-form at least 20%. */
export const INITIAL_BATCH = { count: 40, longForm: 30 } as const;
export const DAILY_BATCH = { count: 15, longForm: 5 } as const;
export const MIN_LONG_FORM_SHARE = 0.2;
export const LONG_FORM_MINUTES = [5, 20] as const;
export const SHORT_MINUTES = [3, 6] as const;
export const WORDS_PER_MINUTE = 200;
/** The initial batch is spread over the days before the first start, so a new blog has a history. */
export const INITIAL_SPREAD_DAYS = 30;

export type BatchKind = "initial" | "daily";

/** One generated article, in the shape the store persists. */
export interface GeneratedArticleRecord {
  id: number;
  slug: string;
  batchDay: string;
  seq: number;
  title: string;
  excerpt: string;
  metaDescription: string;
  contentHtml: string;
  image: string;
  author: string;
  publishedAt: Date;
  modifiedAt: Date;
  readMinutes: number;
  longForm: boolean;
  tags: string[];
  keywords: string[];
  category: string;
  commentCount: number;
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

export function assertDay(day: string): void {
  if (!DAY_RE.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new RangeError(`not a calendar day: ${day}`);
}

/** The UTC calendar day of a moment, YYYY-MM-DD. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return dayOf(d);
}

/** How many long-form articles a batch of `count` gets: the requested number, raised to 20%. */
export function longFormCountFor(count: number, requested: number): number {
  return Math.min(count, Math.max(requested, Math.ceil(count * MIN_LONG_FORM_SHARE)));
}

/**
 * The articles of one batch. Pure: the same day and kind always give the same articles
 * (each article has its own seed, so changing the batch size does not reshuffle the others).
 */
export function generateBatch(day: string, kind: BatchKind): GeneratedArticleRecord[] {
  assertDay(day);
  const { count, longForm } = kind === "initial" ? INITIAL_BATCH : DAILY_BATCH;
  const batchRng = createRng(`vidfetch-blog:${day}:${kind}`);
  const longSeqs = new Set(batchRng.shuffle(Array.from({ length: count }, (_, i) => i)).slice(0, longFormCountFor(count, longForm)));
  const dayNumber = Number(day.replaceAll("-", ""));
  const out: GeneratedArticleRecord[] = [];
  for (let seq = 0; seq < count; seq++) {
    out.push(generateArticle({ day, kind, seq, id: dayNumber * 100 + seq, longForm: longSeqs.has(seq) }));
  }
  return out;
}

function generateArticle(opts: { day: string; kind: BatchKind; seq: number; id: number; longForm: boolean }): GeneratedArticleRecord {
  const rng = createRng(`vidfetch-blog:${opts.day}:${opts.kind}:${opts.seq}`);
  const year = opts.day.slice(0, 4);
  const topic = rng.pick(TOPICS);
  const title = fill(rng.pick(TITLE_TEMPLATES), { topic: topic.tag, year });

  const tagCount = rng.int(2, 4);
  const others = rng.shuffle(TAGS.filter((t) => t !== topic.tag)).slice(0, tagCount - 1);
  const tags = orderTagsForTitle(title, rng.shuffle<string>([topic.tag, ...others]));
  const other = TAG_PHRASES[(others[0] ?? "Guide") as Tag];

  const minutes = opts.longForm ? rng.int(...LONG_FORM_MINUTES) : rng.int(...SHORT_MINUTES);
  const body = buildBody(rng, { topic: topic.tag, t: topic.phrase, other, minutes, longForm: opts.longForm });
  const excerpt = body.firstSentences;
  const suffix = Array.from({ length: 6 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[rng.int(0, 35)]).join("");

  // Initial articles get a history over the previous days; a day's batch is dated that day.
  const publishedDay = opts.kind === "initial" ? addDays(opts.day, -rng.int(0, INITIAL_SPREAD_DAYS - 1)) : opts.day;
  const publishedAt = new Date(Date.parse(`${publishedDay}T00:00:00Z`) + opts.seq * 60_000);

  return {
    id: opts.id,
    slug: slugWithSuffix(title, suffix),
    batchDay: opts.day,
    seq: opts.seq,
    title,
    excerpt,
    metaDescription: cutAtWord(excerpt, 160),
    contentHtml: body.html,
    image: rng.pick(TOPIC_IMAGES[topic.tag] ?? IMAGES),
    author: rng.pick(AUTHORS),
    publishedAt,
    modifiedAt: publishedAt,
    readMinutes: minutes,
    longForm: opts.longForm,
    tags,
    keywords: [...tags, ...DOWNLOAD_KEYWORDS],
    category: tags[0]!,
    commentCount: rng.int(0, 24),
  };
}

/** Spec: the first tag is the one the title mentions, else the first tag as chosen. */
export function orderTagsForTitle(title: string, tags: string[]): string[] {
  const lower = title.toLowerCase();
  const match = tags.find((t) => new RegExp(`(^|[^a-z0-9])${escapeRegExp(t.toLowerCase())}($|[^a-z0-9])`).test(lower));
  return match ? [match, ...tags.filter((t) => t !== match)] : [...tags];
}

/** Cut text to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const space = slice.lastIndexOf(" ");
  return `${(space > max / 2 ? slice.slice(0, space) : slice).replace(/[\s,.;:]+$/, "")}…`;
}

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

export function countWords(text: string): number {
  const m = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu);
  return m ? m.length : 0;
}

/** Deals sentences from a pool in a seeded order, reshuffling when the pool runs out. */
function deck(rng: Rng, pool: readonly string[]) {
  let cards: string[] = [];
  return () => {
    if (cards.length === 0) cards = rng.shuffle(pool);
    return cards.pop()!;
  };
}

interface BodyVars {
  topic: string;
  t: string;
  other: string;
  minutes: number;
  longForm: boolean;
}

/**
 * The article body. Sentences are added until the text is long enough for the read time
 * (200 words a minute), so the "n min read" label is true. Long-form: a multi-section guide
 * with headings and a tip list; short: a few paragraphs.
 */
function buildBody(rng: Rng, v: BodyVars): { html: string; firstSentences: string } {
  const vars = { topic: v.topic, t: v.t, other: v.other };
  const context = deck(rng, CONTEXT_SENTENCES);
  const tips = deck(rng, TIP_SENTENCES);
  const closing = deck(rng, CLOSING_SENTENCES);
  const target = v.minutes * WORDS_PER_MINUTE;
  // Stop a little under the target so rounding lands exactly on the promised minutes.
  const enough = target - 60;
  const parts: string[] = [];
  let words = 0;
  const addText = (text: string) => {
    words += countWords(text);
    return text;
  };

  const intro = addText(fill(rng.pick(INTROS), vars));
  const introMore = [addText(fill(context(), vars)), addText(fill(context(), vars))];
  parts.push(`<p>${escapeHtml([intro, ...introMore].join(" "))}</p>`);
  const firstSentences = cutAtWord(`${intro} ${introMore[0]}`, 220);

  const paragraph = (next: () => string, n: number) => {
    const sentences: string[] = [];
    for (let i = 0; i < n && words < enough; i++) sentences.push(addText(fill(next(), vars)));
    if (sentences.length) parts.push(`<p>${escapeHtml(sentences.join(" "))}</p>`);
  };

  if (!v.longForm) {
    const sources = [context, tips, tips, context];
    let i = 0;
    while (words < enough - 80) paragraph(sources[i++ % sources.length]!, rng.int(4, 6));
    // the closing paragraph always carries the responsibility note
    const last: string[] = [];
    do last.push(addText(fill(closing(), vars)));
    while (words < enough);
    parts.push(`<p>${escapeHtml(last.join(" "))}</p>`);
    return { html: parts.join("\n"), firstSentences };
  }

  const headings = rng.shuffle(SECTION_HEADINGS);
  let listDone = false;
  let h = 0;
  while (words < enough - 120) {
    const heading = fill(headings[h++ % headings.length]!, vars);
    parts.push(`<h2>${escapeHtml(addText(heading))}</h2>`);
    const paragraphs = rng.int(1, 3);
    for (let p = 0; p < paragraphs && words < enough - 120; p++) paragraph(p % 2 === 0 ? context : tips, rng.int(3, 5));
    if (!listDone && words < enough - 120) {
      listDone = true;
      const items: string[] = [];
      for (let i = rng.int(4, 5); i > 0; i--) items.push(`<li>${escapeHtml(addText(fill(tips(), vars)))}</li>`);
      parts.push(`<ul>\n${items.join("\n")}\n</ul>`);
    } else if (words < enough - 120) {
      paragraph(tips, rng.int(2, 4));
    }
  }
  parts.push(`<h2>${escapeHtml(addText("Final Thoughts"))}</h2>`);
  const last: string[] = [];
  do last.push(addText(fill(closing(), vars)));
  while (words < enough);
  parts.push(`<p>${escapeHtml(last.join(" "))}</p>`);
  return { html: parts.join("\n"), firstSentences };
}
