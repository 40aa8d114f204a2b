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
  type Topic,
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
 * The articles of one batch. Pure: the same day, kind and already-used titles always give the
 * same articles (each article has its own seed, so changing the batch size does not reshuffle
 * the others). `takenTitles`: every title already in the store; no new title repeats one of
 * them or another in the batch (compared case-insensitively).
 */
export function generateBatch(day: string, kind: BatchKind, opts: { takenTitles?: Iterable<string> } = {}): GeneratedArticleRecord[] {
  assertDay(day);
  const { count, longForm } = kind === "initial" ? INITIAL_BATCH : DAILY_BATCH;
  const batchRng = createRng(`vidfetch-blog:${day}:${kind}`);
  const longSeqs = new Set(batchRng.shuffle(Array.from({ length: count }, (_, i) => i)).slice(0, longFormCountFor(count, longForm)));
  const dayNumber = Number(day.replaceAll("-", ""));
  const taken = new Set([...(opts.takenTitles ?? [])].map(titleKey));
  const out: GeneratedArticleRecord[] = [];
  for (let seq = 0; seq < count; seq++) {
    const article = generateArticle({ day, kind, seq, id: dayNumber * 100 + seq, longForm: longSeqs.has(seq), taken });
    taken.add(titleKey(article.title));
    out.push(article);
  }
  return out;
}

/** Titles are unique regardless of case. */
export function titleKey(title: string): string {
  return title.toLowerCase();
}

/** A title template filled for a topic: its form, article and verb agreement resolved. */
export function titleFor(template: string, topic: Topic, year: string): string {
  return fillTopic(template, topic, { year });
}

/**
 * Every title a year's templates and topics can make that reads correctly (a few combinations
 * do not, such as "HD Quality Quality Settings"), in pool order.
 */
export function baseTitles(year: string): { topic: Topic; title: string }[] {
  const out: { topic: Topic; title: string }[] = [];
  for (const template of TITLE_TEMPLATES) {
    for (const topic of TOPICS) {
      const title = titleFor(template, topic, year);
      if (!hasRepeatedWord(title)) out.push({ topic, title });
    }
  }
  return out;
}

/** "Quality Quality": the same word twice in a row. */
export function hasRepeatedWord(text: string): boolean {
  const words = text.toLowerCase().split(/[^a-z0-9']+/).filter(Boolean);
  return words.some((w, i) => i > 0 && words[i - 1] === w);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

/** The suffix of a title reused in a later month: "(December 2026 Update)". */
export function updateSuffix(day: string): string {
  return ` (${MONTHS[Number(day.slice(5, 7)) - 1]} ${day.slice(0, 4)} Update)`;
}

/**
 * The seeded pick of topic and template, unless that title is already used: then another unused
 * combination (seeded too). Once a year's 500-odd titles are all used (after about a month of
 * daily batches), a title comes back as that month's update, "… (December 2026 Update)", of
 * which a month has more than it can use; "Part N" is the last resort, so titles stay unique
 * however long the blog runs.
 */
function chooseTitle(rng: Rng, day: string, taken: ReadonlySet<string>): { topic: Topic; title: string } {
  const year = day.slice(0, 4);
  const topic = rng.pick(TOPICS);
  const first = titleFor(rng.pick(TITLE_TEMPLATES), topic, year);
  if (!hasRepeatedWord(first) && !taken.has(titleKey(first))) return { topic, title: first };
  const all = baseTitles(year);
  for (const suffix of ["", updateSuffix(day)]) {
    const free = all.map((c) => ({ topic: c.topic, title: c.title + suffix })).filter((c) => !taken.has(titleKey(c.title)));
    if (free.length) return rng.pick(free);
  }
  const base = rng.pick(all);
  for (let part = 2; ; part++) {
    const title = `${base.title}${updateSuffix(day).replace(/\)$/, `, Part ${part})`)}`;
    if (!taken.has(titleKey(title))) return { topic: base.topic, title };
  }
}

function generateArticle(opts: { day: string; kind: BatchKind; seq: number; id: number; longForm: boolean; taken: ReadonlySet<string> }): GeneratedArticleRecord {
  const rng = createRng(`vidfetch-blog:${opts.day}:${opts.kind}:${opts.seq}`);
  const { topic, title } = chooseTitle(rng, opts.day, opts.taken);

  const tagCount = rng.int(2, 4);
  const others = rng.shuffle(TAGS.filter((t) => t !== topic.tag)).slice(0, tagCount - 1);
  // spec: the first tag is the one the title is about (it may appear as "Playlist" for "Playlists")
  const tags = [topic.tag, ...others];
  const other = TAG_PHRASES[(others[0] ?? "Guide") as Tag];

  const minutes = opts.longForm ? rng.int(...LONG_FORM_MINUTES) : rng.int(...SHORT_MINUTES);
  const body = buildBody(rng, { topic, t: topic.phrase, other, minutes, longForm: opts.longForm });
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

/** Cut text to at most `max` characters at a word boundary, with an ellipsis when cut. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const slice = text.slice(0, max - 1);
  const space = slice.lastIndexOf(" ");
  return `${(space > max / 2 ? slice.slice(0, space) : slice).replace(/[\s,.;:]+$/, "")}…`;
}

function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => vars[k] ?? m);
}

/** {topic}, {topic:mod}, {A} and {Singular|Plural} for a topic, then the plain placeholders. */
function fillTopic(template: string, topic: Topic, vars: Record<string, string>): string {
  const agreed = template
    .replace(/\{topic:mod\}/g, topic.modifier)
    .replace(/\{A\}/g, topic.article)
    .replace(/\{([^{}|]+)\|([^{}|]+)\}/g, (_m, singular: string, plural: string) => (topic.plural ? plural : singular));
  return fill(agreed, { topic: topic.tag, ...vars });
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
  topic: Topic;
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
  const vars = { t: v.t, other: v.other };
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
    const heading = fillTopic(headings[h++ % headings.length]!, v.topic, vars);
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
