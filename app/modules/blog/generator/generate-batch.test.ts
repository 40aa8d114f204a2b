import { describe, expect, it } from "vitest";
import { AUTHORS, IMAGES, INTROS, TAGS, TITLE_TEMPLATES, TOPIC_IMAGES, CONTEXT_SENTENCES, TIP_SENTENCES, CLOSING_SENTENCES } from "./pools.ts";
import { countWords, DAILY_BATCH, generateBatch, INITIAL_BATCH, longFormCountFor, orderTagsForTitle } from "./generate-batch.ts";
import { slugifyTitle } from "./slugify.ts";

const textOf = (html: string) => html.replace(/<[^>]+>/g, " ");

describe("generated article pools", () => {
  it("has the spec's pool sizes and the ten named tags", () => {
    expect(TAGS).toHaveLength(25);
    expect(new Set(TAGS).size).toBe(25);
    for (const t of ["YouTube", "Video Download", "MP4", "MP3", "Tutorial", "Guide", "HD Quality", "Mobile", "4K Download", "Audio Extraction"]) {
      expect(TAGS).toContain(t);
    }
    expect(TITLE_TEMPLATES).toHaveLength(35);
    expect(AUTHORS).toHaveLength(15);
    expect(IMAGES).toHaveLength(11);
    expect(INTROS).toHaveLength(10);
    for (const set of [CONTEXT_SENTENCES, TIP_SENTENCES, CLOSING_SENTENCES]) expect(set.length).toBeGreaterThan(10);
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
          expect(a.readMinutes).toBeGreaterThanOrEqual(5);
          expect(a.readMinutes).toBeLessThanOrEqual(20);
          expect(a.contentHtml).toContain("<h2>");
        } else {
          expect(a.readMinutes).toBeGreaterThanOrEqual(3);
          expect(a.readMinutes).toBeLessThanOrEqual(6);
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
      expect(a.title.toLowerCase()).toContain(a.tags[0]!.toLowerCase());
      expect(a.category).toBe(a.tags[0]);
      expect(a.keywords.slice(0, a.tags.length)).toEqual(a.tags);
      expect(a.keywords).toHaveLength(a.tags.length + 3);
      expect(a.commentCount).toBeGreaterThanOrEqual(0);
      expect(a.commentCount).toBeLessThanOrEqual(24);
      expect(a.slug).toMatch(new RegExp(`^${slugifyTitle(a.title)}-[a-z0-9]{6}$`));
      expect(AUTHORS).toContain(a.author as (typeof AUTHORS)[number]);
      expect(IMAGES).toContain(a.image as (typeof IMAGES)[number]);
      expect(a.metaDescription.length).toBeLessThanOrEqual(160);
      expect(a.publishedAt.toISOString().slice(0, 10)).toBe("2026-09-09");
      expect(a.contentHtml).not.toMatch(/\{\w+\}/);
      expect(a.title).not.toMatch(/\{\w+\}/);
    }
    expect(ids.size).toBe(batch.length);
  });

  it("dates initial articles over the days before the first run", () => {
    const dates = new Set(generateBatch("2026-09-09", "initial").map((a) => a.publishedAt.toISOString().slice(0, 10)));
    expect(dates.size).toBeGreaterThan(5);
    for (const d of dates) expect(d <= "2026-09-09" && d >= "2026-08-11").toBe(true);
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

describe("orderTagsForTitle", () => {
  it("puts the tag the title mentions first", () => {
    expect(orderTagsForTitle("MP3 Questions Answered", ["Guide", "Privacy", "MP3"])).toEqual(["MP3", "Guide", "Privacy"]);
  });
  it("keeps the order when no tag matches the title", () => {
    expect(orderTagsForTitle("Saving Time", ["Guide", "Privacy"])).toEqual(["Guide", "Privacy"]);
  });
  it("matches whole words only", () => {
    expect(orderTagsForTitle("MP4s for Everyone", ["Guide", "MP4"])).toEqual(["Guide", "MP4"]);
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
