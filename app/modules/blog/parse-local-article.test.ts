import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LocalArticleError, parseLocalArticle, parseLocalArticles } from "./parse-local-article.server.ts";
import { fixtureArticles, fixtureFiles } from "./test-fixtures/load-fixtures.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");

describe("local article loader", () => {
  it("parses front matter into the spec's full article", () => {
    const a = fixtureArticles().find((x) => x.slug === "saving-lectures-offline")!;
    expect(a).toMatchObject({
      id: 1,
      title: "Saving Lectures for Offline Study",
      author: "Test Author",
      date: "February 1, 2026",
      publishedAt: "2026-02-01T00:00:00.000Z",
      modifiedDate: "2026-02-03T00:00:00.000Z",
      readTime: "4 min read",
      tags: ["Tutorial", "MP4", "Study"],
      keywords: ["offline lectures", "study videos"],
      canonical: "/blog/saving-lectures-offline",
      category: "Tutorial",
      source: "local",
    });
    expect(a.contentHtml).toContain("<h2>Why offline</h2>");
    expect(a.contentHtml).toContain("<strong>Keep them</strong>");
  });

  it("sanitises the body: no scripts, handlers, iframes, javascript: links or third-party images", () => {
    const html = fixtureArticles().find((x) => x.slug === "saving-lectures-offline")!.contentHtml;
    expect(html).not.toMatch(/<script|onerror|<iframe|javascript:|tracker\.example/i);
    expect(html).toContain('src="/blog/covers/saving-lectures-offline.svg"');
    expect(html).toContain('href="https://example.org/guide"');
    expect(html).toMatch(/rel="noopener noreferrer nofollow"/);
  });

  it("turns an author's h1 into h2 (the page title is the only h1)", () => {
    const html = fixtureArticles().find((x) => x.slug === "podcast-audio-basics")!.contentHtml;
    expect(html).toContain("<h2>A heading one</h2>");
    expect(html).not.toContain("<h1");
  });

  it("names every front matter problem", () => {
    const raw = fixtureFiles()["podcast-audio-basics.md"]!.replace("readTime: \"3 min read\"", "readTime: soon").replace("image: /blog/covers/podcast-audio-basics.svg", "image: https://cdn.example/x.jpg");
    try {
      parseLocalArticle("podcast-audio-basics.md", raw);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(LocalArticleError);
      expect((err as Error).message).toMatch(/readTime/);
      expect((err as Error).message).toMatch(/image/);
    }
  });

  it("rejects a slug that does not match the file name, missing front matter, unknown fields and duplicate ids", () => {
    const raw = fixtureFiles()["podcast-audio-basics.md"]!;
    expect(() => parseLocalArticle("other.md", raw)).toThrow(/does not match the file name/);
    expect(() => parseLocalArticle("x.md", "no front matter")).toThrow(/front matter/);
    expect(() => parseLocalArticle("podcast-audio-basics.md", raw.replace("author:", "colour: red\nauthor:"))).toThrow(/colour|Unrecognized/i);
    const dup = raw.replace("slug: podcast-audio-basics", "slug: dup-article");
    expect(() => parseLocalArticles({ "podcast-audio-basics.md": raw, "dup-article.md": dup })).toThrow(/id 2 is used by both/);
  });
});

const contentDir = path.join(repoRoot, "content/blog");
describe.skipIf(!existsSync(contentDir))("content/blog", () => {
  const files = existsSync(contentDir)
    ? Object.fromEntries(
        readdirSync(contentDir)
          .filter((f) => f.endsWith(".md"))
          .map((f) => [f, readFileSync(path.join(contentDir, f), "utf8")]),
      )
    : {};

  it("every local article has valid front matter and a self-hosted cover that exists", () => {
    const articles = parseLocalArticles(files);
    expect(articles.length).toBeGreaterThan(0);
    for (const a of articles) expect(existsSync(path.join(repoRoot, "public", a.image)), `${a.slug}: ${a.image}`).toBe(true);
  });
});
