import { describe, expect, it } from "vitest";
import { rankRelated } from "./articles.server.ts";
import type { ArticleSummary } from "./types.ts";

describe("rankRelated", () => {
  const s = (slug: string, tags: string[], publishedAt: string): ArticleSummary => ({
    id: 1, slug, title: slug, excerpt: "", image: "", author: "", publishedAt, date: "", readTime: "3 min read", tags, source: "generated", premium: false,
  });
  it("orders by shared tags, then newest, then the rest newest first", () => {
    const me = s("me", ["MP3", "Guide"], "2026-01-01");
    const out = rankRelated(me, [
      s("none-new", ["Privacy"], "2026-05-01"),
      s("one-old", ["mp3"], "2026-01-02"),
      s("two", ["MP3", "Guide"], "2025-01-01"),
      s("one-new", ["Guide"], "2026-03-01"),
      me,
    ], 5);
    expect(out.map((a) => a.slug)).toEqual(["two", "one-new", "one-old", "none-new"]);
  });
  it("fills up with other articles when too few share a tag", () => {
    const me = s("me", ["Rare"], "2026-01-01");
    const out = rankRelated(me, [s("a", ["X"], "2026-01-03"), s("b", ["Rare"], "2020-01-01"), s("c", ["Y"], "2026-01-02")], 3);
    expect(out.map((a) => a.slug)).toEqual(["b", "a", "c"]);
  });
});
