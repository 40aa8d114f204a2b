import { createRng, type Rng } from "./prng.ts";
import {
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
  TOPIC_SENTENCES,
  TOPICS,
  type Tag,
  type Topic,
} from "./pools.ts";
import { EDITORIAL_BYLINE } from "../byline.ts";
import { slugWithSuffix } from "./slugify.ts";

export { EDITORIAL_BYLINE };

/** Spec §9: 40 at first (30 long-form), 15 per new day (5 long-form), long-form at least 20%. */
export const INITIAL_BATCH = { count: 40, longForm: 30 } as const;
export const DAILY_BATCH = { count: 15, longForm: 5 } as const;
export const MIN_LONG_FORM_SHARE = 0.2;
/**
 * Read times. The spec's 5–20 and 3–6 minutes came from a prototype that padded articles by
 * repeating sentences; an article here never repeats one, so a long-form guide is as long as
 * the distinct material for its topic allows (docs/decisions/037-generated-articles-say-each-thing-once.md).
 */
export const LONG_FORM_MINUTES = [5, 7] as const;
export const SHORT_MINUTES = [3, 4] as const;
export const WORDS_PER_MINUTE = 200;
/** An article's image differs from those of the articles published just before it. */
export const IMAGE_SPACING = 2;

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
export function generateBatch(day: string, kind: BatchKind, opts: { takenTitles?: Iterable<string>; recentImages?: readonly string[] } = {}): GeneratedArticleRecord[] {
  assertDay(day);
  const { count, longForm } = kind === "initial" ? INITIAL_BATCH : DAILY_BATCH;
  const batchRng = createRng(`vidfetch-blog:${day}:${kind}`);
  const longSeqs = new Set(batchRng.shuffle(Array.from({ length: count }, (_, i) => i)).slice(0, longFormCountFor(count, longForm)));
  const dayNumber = Number(day.replaceAll("-", ""));
  const taken = new Set([...(opts.takenTitles ?? [])].map(titleKey));
  const out: GeneratedArticleRecord[] = [];
  // newest last: the images of the articles published just before this batch, then its own
  const recent = [...(opts.recentImages ?? [])];
  for (let seq = 0; seq < count; seq++) {
    const article = generateArticle({ day, kind, seq, id: dayNumber * 100 + seq, longForm: longSeqs.has(seq), taken, recentImages: recent.slice(-IMAGE_SPACING) });
    taken.add(titleKey(article.title));
    recent.push(article.image);
    out.push(article);
  }
  return out;
}

/**
 * An image for a topic that none of `recent` uses: one of the topic's own when it has a free one,
 * else any free image, so neighbours in the list and the home page's three teasers differ.
 */
export function pickImage(rng: Rng, tag: string, recent: readonly string[]): string {
  const suited = TOPIC_IMAGES[tag as Tag] ?? IMAGES;
  const fresh = suited.filter((i) => !recent.includes(i));
  if (fresh.length) return rng.pick(fresh);
  return rng.pick(IMAGES.filter((i) => !recent.includes(i)));
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

function generateArticle(opts: { day: string; kind: BatchKind; seq: number; id: number; longForm: boolean; taken: ReadonlySet<string>; recentImages: readonly string[] }): GeneratedArticleRecord {
  const rng = createRng(`vidfetch-blog:${opts.day}:${opts.kind}:${opts.seq}`);
  const { topic, title } = chooseTitle(rng, opts.day, opts.taken);

  const tagCount = rng.int(2, 4);
  const others = rng.shuffle(TAGS.filter((t) => t !== topic.tag)).slice(0, tagCount - 1);
  // spec: the first tag is the one the title is about (it may appear as "Playlist" for "Playlists")
  const tags = [topic.tag, ...others];
  const other = TAG_PHRASES[(others[0] ?? "Guide") as Tag];

  const body = articleBody(rng, topic, other, opts.longForm);
  const suffix = Array.from({ length: 6 }, () => "abcdefghijklmnopqrstuvwxyz0123456789"[rng.int(0, 35)]).join("");
  // dated the day the article appeared here (its batch's day), never earlier
  const publishedAt = publishedAtFor(opts.day, opts.seq);

  return {
    id: opts.id,
    slug: slugWithSuffix(title, suffix),
    batchDay: opts.day,
    seq: opts.seq,
    title,
    ...body,
    image: pickImage(rng, topic.tag, opts.recentImages),
    author: EDITORIAL_BYLINE,
    publishedAt,
    modifiedAt: publishedAt,
    longForm: opts.longForm,
    tags,
    keywords: [...tags, ...DOWNLOAD_KEYWORDS],
    category: tags[0]!,
    commentCount: rng.int(0, 24),
  };
}

/** A batch's articles appear on its day, a minute apart in batch order. */
export function publishedAtFor(batchDay: string, seq: number): Date {
  return new Date(Date.parse(`${batchDay}T00:00:00Z`) + seq * 60_000);
}

/** The text of an article on `topic`: body, excerpt, meta description and its true read time. */
export function articleBody(rng: Rng, topic: Topic, other: string, longForm: boolean): Pick<GeneratedArticleRecord, "contentHtml" | "excerpt" | "metaDescription" | "readMinutes"> {
  const minutes = longForm ? rng.int(...LONG_FORM_MINUTES) : rng.int(...SHORT_MINUTES);
  const body = buildBody(rng, { topic, t: topic.phrase, other, minutes, longForm });
  return { contentHtml: body.html, excerpt: body.firstSentences, metaDescription: cutAtWord(body.firstSentences, 160), readMinutes: body.readMinutes };
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

/** Deals each sentence of a pool once, in a seeded order; undefined when the pool is used up. */
function deck(rng: Rng, pool: readonly string[]) {
  const cards = rng.shuffle(pool);
  return (): string | undefined => cards.pop();
}

interface BodyVars {
  topic: Topic;
  t: string;
  other: string;
  minutes: number;
  longForm: boolean;
}

/**
 * The article body. Sentences are added until the text is long enough for the chosen read time
 * (200 words a minute), each at most once: when the material runs out first, the article is
 * shorter, and its read time says so. Long-form: a multi-section guide with headings and a tip
 * list; short: a few paragraphs.
 */
function buildBody(rng: Rng, v: BodyVars): { html: string; firstSentences: string; readMinutes: number } {
  const vars = { t: v.t, other: v.other };
  const context = deck(rng, CONTEXT_SENTENCES);
  const tips = deck(rng, TIP_SENTENCES);
  const closing = deck(rng, CLOSING_SENTENCES);
  const particular = deck(rng, TOPIC_SENTENCES[v.topic.tag] ?? []);
  // Stop a little under the target so rounding lands on the promised minutes.
  const enough = v.minutes * WORDS_PER_MINUTE - 60;
  const parts: string[] = [];
  let words = 0;
  const addText = (text: string) => {
    words += countWords(text);
    return text;
  };
  /** The next sentence of the first of `sources` that has one left. */
  const next = (...sources: Array<() => string | undefined>) => {
    for (const source of sources) {
      const sentence = source();
      if (sentence !== undefined) return addText(fill(sentence, vars));
    }
    return undefined;
  };

  const intro = addText(fill(rng.pick(INTROS), vars));
  const introMore = [next(particular, context), next(context, particular)].filter((x): x is string => x !== undefined);
  parts.push(`<p>${escapeHtml([intro, ...introMore].join(" "))}</p>`);
  const firstSentences = cutAtWord(`${intro} ${introMore[0] ?? ""}`.trim(), 220);

  /** A paragraph of up to `n` sentences; false when every source was used up. */
  const paragraph = (n: number, ...sources: Array<() => string | undefined>) => {
    const sentences: string[] = [];
    for (let i = 0; i < n && words < enough; i++) {
      const sentence = next(...sources);
      if (sentence === undefined) break;
      sentences.push(sentence);
    }
    if (sentences.length) parts.push(`<p>${escapeHtml(sentences.join(" "))}</p>`);
    return sentences.length > 0;
  };
  /** The closing paragraph, which always carries a responsibility note. */
  const close = () => {
    const last: string[] = [];
    for (let sentence = next(closing); sentence !== undefined; sentence = words < enough ? next(closing) : undefined) last.push(sentence);
    parts.push(`<p>${escapeHtml(last.join(" "))}</p>`);
  };
  const result = () => ({ html: parts.join("\n"), firstSentences, readMinutes: Math.max(1, Math.round(words / WORDS_PER_MINUTE)) });

  if (!v.longForm) {
    const rotation = [
      [particular, context],
      [tips, particular],
      [context, tips],
    ] as const;
    for (let i = 0; words < enough - 80 && paragraph(rng.int(4, 6), ...rotation[i % rotation.length]!, context, tips); i++);
    close();
    return result();
  }

  const headings = rng.shuffle(SECTION_HEADINGS);
  let listDone = false;
  for (let h = 0; h < headings.length && words < enough - 120; h++) {
    const heading = fillTopic(headings[h]!, v.topic, vars);
    const start = parts.length;
    parts.push(`<h2>${escapeHtml(heading)}</h2>`);
    const headingWords = countWords(heading);
    words += headingWords;
    let wrote = paragraph(rng.int(3, 5), particular, context, tips);
    if (!listDone && words < enough - 120) {
      const items: string[] = [];
      for (let i = rng.int(4, 5); i > 0; i--) {
        const tip = next(tips);
        if (tip !== undefined) items.push(`<li>${escapeHtml(tip)}</li>`);
      }
      if (items.length) {
        listDone = true;
        wrote = true;
        parts.push(`<ul>\n${items.join("\n")}\n</ul>`);
      }
    } else if (words < enough - 120) {
      wrote = paragraph(rng.int(2, 4), context, tips, particular) || wrote;
    }
    if (!wrote) {
      // the material ran out: no heading without text under it
      parts.splice(start);
      words -= headingWords;
      break;
    }
  }
  parts.push(`<h2>${escapeHtml(addText("Final Thoughts"))}</h2>`);
  close();
  return result();
}
