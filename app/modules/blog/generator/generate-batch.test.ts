import { describe, expect, it } from "vitest";
import { IMAGES, INTROS, SECTION_HEADINGS, TAGS, TITLE_TEMPLATES, TOPIC_IMAGES, TOPIC_SENTENCES, TOPICS, CONTEXT_SENTENCES, TIP_SENTENCES, CLOSING_SENTENCES } from "./pools.ts";
import {
  addDays,
  baseTitles,
  countWords,
  DAILY_BATCH,
  EDITORIAL_BYLINE,
  generateBatch,
  IMAGE_SPACING,
  INITIAL_BATCH,
  LONG_FORM_MINUTES,
  longFormCountFor,
  SHORT_MINUTES,
  titleFor,
  updateSuffix,
} from "./generate-batch.ts";
import { slugifyTitle } from "./slugify.ts";

/** What a reader sees: tags gone, entities decoded (an escaped apostrophe is not two words). */
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'" };
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

describe("generated article pools", () => {
  it("has the spec's pool sizes and the ten named tags", () => {
    expect(TAGS).toHaveLength(25);
    expect(new Set(TAGS).size).toBe(25);
    for (const t of ["YouTube", "Video Download", "MP4", "MP3", "Tutorial", "Guide", "HD Quality", "Mobile", "4K Download", "Audio Extraction"]) {
      expect(TAGS).toContain(t);
    }
    expect(TITLE_TEMPLATES).toHaveLength(35);
    expect(IMAGES).toHaveLength(11);
    expect(INTROS).toHaveLength(10);
    for (const set of [CONTEXT_SENTENCES, TIP_SENTENCES, CLOSING_SENTENCES]) expect(set.length).toBeGreaterThan(10);
    // every topic has its own sentences, none shared with another topic or a general set
    const all = [...CONTEXT_SENTENCES, ...TIP_SENTENCES, ...CLOSING_SENTENCES, ...TOPICS.flatMap((t) => TOPIC_SENTENCES[t.tag] ?? [])];
    for (const t of TOPICS) expect(TOPIC_SENTENCES[t.tag]?.length ?? 0, t.tag).toBeGreaterThanOrEqual(6);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("generateBatch", () => {
  it("gives the same articles for the same date, and different ones for another date", () => {
    const a = generateBatch("2026-03-14", "initial");
    const b = generateBatch("2026-03-14", "initial");
    expect(b).toEqual(a);
    const other = generateBatch("2026-03-15", "initial");
    expect(other.map((x) => x.slug)).not.toEqual(a.map((x) => x.slug));
  });

  it("creates 40 initial articles, 30 of them long-form", () => {
    const batch = generateBatch("2026-05-01", "initial");
    expect(batch).toHaveLength(INITIAL_BATCH.count);
    expect(batch.filter((a) => a.longForm)).toHaveLength(30);
  });

  it("creates 15 daily articles, 5 of them long-form", () => {
    const batch = generateBatch("2026-05-02", "daily");
    expect(batch).toHaveLength(DAILY_BATCH.count);
    expect(batch.filter((a) => a.longForm)).toHaveLength(5);
  });

  it("raises the long-form count to at least 20% of the batch", () => {
    expect(longFormCountFor(40, 30)).toBe(30);
    expect(longFormCountFor(15, 5)).toBe(5);
    expect(longFormCountFor(15, 1)).toBe(3);
    expect(longFormCountFor(100, 0)).toBe(20);
    expect(longFormCountFor(3, 10)).toBe(3);
  });

  it("keeps read times in range and true to the text (200 words a minute)", () => {
    for (const day of ["2026-01-01", "2026-07-19", "2027-02-28"]) {
      for (const a of [...generateBatch(day, "initial"), ...generateBatch(day, "daily")]) {
        if (a.longForm) {
          expect(a.readMinutes).toBeGreaterThanOrEqual(LONG_FORM_MINUTES[0]);
          expect(a.readMinutes).toBeLessThanOrEqual(LONG_FORM_MINUTES[1]);
          expect(a.contentHtml).toContain("<h2>");
        } else {
          expect(a.readMinutes).toBeGreaterThanOrEqual(SHORT_MINUTES[0]);
          expect(a.readMinutes).toBeLessThanOrEqual(SHORT_MINUTES[1]);
          expect(a.contentHtml).not.toContain("<h2>");
        }
        expect(Math.round(countWords(textOf(a.contentHtml)) / 200)).toBe(a.readMinutes);
      }
    }
  });

  it("fills every field as the spec describes", () => {
    const batch = generateBatch("2026-09-09", "daily");
    const ids = new Set<number>();
    for (const a of batch) {
      ids.add(a.id);
      expect(a.tags.length).toBeGreaterThanOrEqual(2);
      expect(a.tags.length).toBeLessThanOrEqual(4);
      expect(new Set(a.tags).size).toBe(a.tags.length);
      // the first tag is the title's topic, as the tag or in its singular form ("Playlist Mistakes")
      const topic = TOPICS.find((t) => t.tag === a.tags[0]);
      expect(topic, a.title).toBeDefined();
      expect(a.title.includes(topic!.tag) || a.title.includes(topic!.modifier), a.title).toBe(true);
      expect(a.category).toBe(a.tags[0]);
      expect(a.keywords.slice(0, a.tags.length)).toEqual(a.tags);
      expect(a.keywords).toHaveLength(a.tags.length + 3);
      expect(a.commentCount).toBeGreaterThanOrEqual(0);
      expect(a.commentCount).toBeLessThanOrEqual(24);
      expect(a.slug).toMatch(new RegExp(`^${slugifyTitle(a.title)}-[a-z0-9]{6}$`));
      expect(a.author).toBe(EDITORIAL_BYLINE);
      expect(IMAGES).toContain(a.image as (typeof IMAGES)[number]);
      expect(a.metaDescription.length).toBeLessThanOrEqual(160);
      expect(a.publishedAt.toISOString().slice(0, 10)).toBe("2026-09-09");
      expect(a.contentHtml).not.toMatch(/\{\w+\}/);
      expect(a.title).not.toMatch(/\{\w+\}/);
    }
    expect(ids.size).toBe(batch.length);
  });

  it("dates every article the day it appeared (its batch's day), the initial batch too", () => {
    for (const kind of ["initial", "daily"] as const) {
      const batch = generateBatch("2026-09-09", kind);
      expect(new Set(batch.map((a) => a.publishedAt.toISOString().slice(0, 10)))).toEqual(new Set(["2026-09-09"]));
      // a minute apart, in batch order, so the list's order is stable
      batch.forEach((a, i) => i > 0 && expect(a.publishedAt.getTime() - batch[i - 1]!.publishedAt.getTime()).toBe(60_000));
    }
  });

  it("never repeats a sentence within an article", () => {
    let day = "2026-01-01";
    for (let d = 0; d < 20; d++, day = addDays(day, 1)) {
      for (const a of generateBatch(day, d === 0 ? "initial" : "daily")) {
        const sentences = textOf(a.contentHtml)
          .split(/(?<=[.!?])\s+/)
          .map((x) => x.trim())
          .filter(Boolean);
        const repeated = sentences.filter((x, i) => sentences.indexOf(x) !== i);
        expect(repeated, a.slug).toEqual([]);
      }
    }
  });

  it("gives neighbours different images, across the start of a batch too", () => {
    for (const day of ["2026-01-01", "2026-07-19"]) {
      for (const kind of ["initial", "daily"] as const) {
        const images = generateBatch(day, kind).map((a) => a.image);
        images.forEach((img, i) => expect(images.slice(Math.max(0, i - IMAGE_SPACING), i), `${day} ${kind} #${i}`).not.toContain(img));
      }
    }
    const recentImages = ["/blog/generated/video-player.svg", "/blog/generated/film-strip.svg"];
    const [first, second] = generateBatch("2026-07-20", "daily", { recentImages });
    expect(recentImages).not.toContain(first!.image);
    expect([recentImages[1], first!.image]).not.toContain(second!.image);
  });

  it("escapes text it puts into HTML", () => {
    const html = generateBatch("2026-09-09", "initial").map((a) => a.contentHtml).join("\n");
    expect(html).toContain("&#39;");
    expect(html).not.toMatch(/<(?!\/?(p|h2|ul|li)>)/);
  });

  it("rejects a malformed day", () => {
    expect(() => generateBatch("2026-13-01", "daily")).toThrow(RangeError);
    expect(() => generateBatch("yesterday", "daily")).toThrow(RangeError);
  });
});

describe("slugifyTitle", () => {
  it("lowercases, strips punctuation and joins words with hyphens", () => {
    expect(slugifyTitle("The Do's and Don'ts of MP4")).toBe("the-dos-and-donts-of-mp4");
    expect(slugifyTitle("{topic} vs. Streaming: When Saving a Copy Makes Sense".replace("{topic}", "4K Download"))).toBe(
      "4k-download-vs-streaming-when-saving-a-copy-makes-sense",
    );
    expect(slugifyTitle("  Storage-Friendly  Café — Tips!  ")).toBe("storage-friendly-cafe-tips");
  });
});

describe("generated article images", () => {
  it("are self-hosted files that exist", async () => {
    const { existsSync } = await import("node:fs");
    const path = await import("node:path");
    const repoRoot = path.resolve(import.meta.dirname, "../../../..");
    for (const img of IMAGES) expect(existsSync(path.join(repoRoot, "public", img)), img).toBe(true);
  });

  it("every image suits at least one topic", () => {
    const used = new Set(Object.values(TOPIC_IMAGES).flat());
    for (const img of IMAGES) expect(used.has(img), img).toBe(true);
  });
});

/**
 * Grammar rules checked on every template × topic, independently of how the generator fills
 * them: plural tags ("Video Formats") take plural verbs and never stand in front of a noun,
 * singular ones take singular verbs, "A"/"An" follow the sound of the next word, and no word
 * appears twice in a row.
 */
const VERBS: [singular: string, plural: string][] = [
  ["Has", "Have"],
  ["Is", "Are"],
  ["Was", "Were"],
  ["Matters", "Matter"],
  ["Works", "Work"],
  ["Makes", "Make"],
  ["Needs", "Need"],
];
/** What may follow a plural noun in these titles: prepositions, conjunctions, participles, plural verbs. */
const AFTER_PLURAL_NOUN = new Set(["in", "on", "for", "and", "vs", "like", "made", "explained", "today", ...VERBS.map(([, p]) => p.toLowerCase())]);
/** Letters whose spoken name starts with a vowel sound ("an MP4", "an HD", "an F-stop"). */
const VOWEL_SOUND_LETTERS = new Set("AEFHILMNORSX");

/** English by rule: a tag whose last word ends in "s" is a plural noun ("Playlists"), others are not ("Offline Viewing"). */
const isPluralTag = (tag: string) => /s$/.test(tag.split(" ").at(-1)!);

function wantsAn(word: string): boolean {
  if (/^\d/.test(word)) return /^(8|11|18)/.test(word);
  // an initialism spoken letter by letter: MP4, HD
  if (/^[A-Z]{1,3}\d*$/.test(word) && word.length <= 4 && /[A-Z]{2}|\d/.test(word)) return VOWEL_SOUND_LETTERS.has(word[0]!);
  return /^[aeiou]/i.test(word);
}

function grammarProblems(text: string, topicTag: string): string[] {
  const problems: string[] = [];
  if (/[{}|]/.test(text)) problems.push("unfilled placeholder");
  const words = text.split(/\s+/);
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.toLowerCase().replace(/[^a-z0-9']/g, "") === words[i - 1]!.toLowerCase().replace(/[^a-z0-9']/g, "")) problems.push(`"${words[i]}" twice`);
    if (/^an?$/i.test(words[i - 1]!) && wantsAn(words[i]!) !== /^an$/i.test(words[i - 1]!)) problems.push(`"${words[i - 1]} ${words[i]}"`);
  }
  const at = text.indexOf(topicTag);
  if (at >= 0) {
    const rest = text.slice(at + topicTag.length);
    const next = /^[:,]|^$/.test(rest) ? null : rest.trim().split(/\s+/)[0]!.replace(/[:,.!?]+$/, "");
    if (next) {
      const verb = VERBS.find(([sg, pl]) => next === sg || next === pl);
      if (isPluralTag(topicTag)) {
        if (verb && next !== verb[1]) problems.push(`plural "${topicTag} ${next}"`);
        if (!AFTER_PLURAL_NOUN.has(next.toLowerCase())) problems.push(`plural noun used as a modifier: "${topicTag} ${next}"`);
      } else if (verb && next !== verb[0]) {
        problems.push(`singular "${topicTag} ${next}"`);
      }
    }
  }
  return problems;
}

describe("generated titles and headings", () => {
  it("the grammar rules catch the mistakes they are meant to catch", () => {
    expect(grammarProblems("How Video Formats Has Changed in 2026", "Video Formats")).toContain('plural "Video Formats Has"');
    expect(grammarProblems("How MP4 Have Changed in 2026", "MP4")).toContain('singular "MP4 Have"');
    expect(grammarProblems("Common Playlists Mistakes and How to Avoid Them", "Playlists")).toContain('plural noun used as a modifier: "Playlists Mistakes"');
    expect(grammarProblems("Choosing the Right Format: A MP4 Perspective", "MP4")).toContain('"A MP4"');
    expect(grammarProblems("Choosing the Right Format: An WEBM Perspective", "WEBM")).toContain('"An WEBM"');
    expect(grammarProblems("HD Quality Quality Settings Demystified", "HD Quality")).toContain('"Quality" twice');
    expect(grammarProblems("How Video Formats Have Changed in 2026", "Video Formats")).toEqual([]);
  });

  it("the pool's plural flags follow the English rule", () => {
    for (const t of TOPICS) expect(t.plural, t.tag).toBe(isPluralTag(t.tag));
  });

  it("every template × topic that the generator may use reads correctly", () => {
    const usable = new Set(baseTitles("2026").map((c) => c.title));
    let checked = 0;
    for (const template of TITLE_TEMPLATES) {
      for (const topic of TOPICS) {
        const title = titleFor(template, topic, "2026");
        const problems = grammarProblems(title, topic.tag);
        // the generator never picks a combination that reads wrong
        if (problems.length) expect(usable.has(title), `${title}: ${problems.join(", ")}`).toBe(false);
        else checked++;
        expect(title.includes(topic.tag) || title.includes(topic.modifier), title).toBe(true);
      }
    }
    // only "HD Quality Quality Settings" is left out
    expect(checked).toBe(TITLE_TEMPLATES.length * TOPICS.length - 1);
    expect(usable.size).toBe(checked);
    expect(titleFor("How {topic} {Has|Have} Changed in {year}", TOPICS.find((t) => t.tag === "Video Formats")!, "2026")).toBe("How Video Formats Have Changed in 2026");
    expect(titleFor("How {topic} {Has|Have} Changed in {year}", TOPICS.find((t) => t.tag === "MP4")!, "2026")).toBe("How MP4 Has Changed in 2026");
  });

  it("every section heading × topic reads correctly", () => {
    for (const heading of SECTION_HEADINGS) {
      for (const topic of TOPICS) {
        const text = titleFor(heading, topic, "2026");
        expect(grammarProblems(text, topic.tag), text).toEqual([]);
      }
    }
  });

  it("all usable titles of a year are distinct", () => {
    const titles = baseTitles("2026").map((c) => c.title.toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("titles are unique within a batch and never repeat a title already taken", () => {
    const initial = generateBatch("2026-03-14", "initial");
    expect(new Set(initial.map((a) => a.title.toLowerCase())).size).toBe(initial.length);
    const taken = initial.map((a) => a.title.toUpperCase());
    const next = generateBatch("2026-03-15", "daily", { takenTitles: taken });
    for (const a of next) expect(taken.map((t) => t.toLowerCase())).not.toContain(a.title.toLowerCase());
    // the same inputs give the same articles
    expect(generateBatch("2026-03-15", "daily", { takenTitles: taken })).toEqual(next);
  });

  it("stays unique and grammatical day after day, as monthly updates once a year's titles are used up", () => {
    // 75 days from November: the year's ~520 titles run out in December, then a new year starts
    const taken: string[] = [];
    let day = "2026-11-01";
    taken.push(...generateBatch(day, "initial", { takenTitles: taken }).map((a) => a.title));
    for (let i = 0; i < 75; i++) {
      day = addDays(day, 1);
      for (const a of generateBatch(day, "daily", { takenTitles: taken })) {
        expect(grammarProblems(a.title.replace(/ \([A-Z][a-z]+ \d{4} Update(, Part \d+)?\)$/, ""), a.tags[0]!), a.title).toEqual([]);
        taken.push(a.title);
      }
    }
    expect(taken).toHaveLength(40 + 75 * 15);
    expect(new Set(taken.map((t) => t.toLowerCase())).size).toBe(taken.length);
    expect(taken.some((t) => t.endsWith(" (December 2026 Update)"))).toBe(true);
    expect(taken.some((t) => t.endsWith(" (January 2027 Update)"))).toBe(true);
  });

  it("numbers parts when even a month's updates are all used", () => {
    const base = baseTitles("2026").map((c) => c.title);
    const taken = [...base, ...base.map((t) => t + updateSuffix("2026-12-05"))];
    const batch = generateBatch("2026-12-05", "daily", { takenTitles: taken });
    for (const a of batch) expect(a.title).toMatch(/ \(December 2026 Update, Part \d+\)$/);
    expect(new Set(batch.map((a) => a.title)).size).toBe(batch.length);
  });
});
