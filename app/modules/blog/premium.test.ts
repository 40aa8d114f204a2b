import { describe, expect, it } from "vitest";
import { generateBatch } from "./generator/generate-batch.ts";
import { renderMarkdown } from "./parse-local-article.server.ts";
import { getLocalArticles } from "./local-articles.server.ts";
import { articleBodyFor, isGeneratedPremium, PREMIUM_CONTENT_CLASS, premiumJsonLd, splitIntroduction, topLevelBlocks } from "./premium.ts";

const words = (n: number, word = "word") => Array.from({ length: n }, () => word).join(" ");

describe("topLevelBlocks", () => {
  it("cuts at top-level elements only and gives the HTML back when joined", () => {
    const html = "<p>One <strong>two</strong></p>\n<ul>\n<li><p>nested</p></li>\n</ul>\n<hr>\n<blockquote><h2>quoted</h2></blockquote>\n<p>last<br>line</p>\n";
    const blocks = topLevelBlocks(html);
    expect(blocks.map((b) => b.trim())).toEqual(["<p>One <strong>two</strong></p>", "<ul>\n<li><p>nested</p></li>\n</ul>", "<hr>", "<blockquote><h2>quoted</h2></blockquote>", "<p>last<br>line</p>"]);
    expect(blocks.join("")).toBe(html);
  });

  it("keeps text outside any element", () => {
    expect(topLevelBlocks("plain text").join("")).toBe("plain text");
    expect(topLevelBlocks("<p>a</p> trailing").join("")).toBe("<p>a</p> trailing");
  });
});

describe("splitIntroduction", () => {
  it("ends the introduction at the first top-level H2", () => {
    const html = renderMarkdown(`First ${words(30)}.\n\nSecond ${words(30)}.\n\n## Later\n\nHidden ${words(80)}.\n\n## More\n\nAlso hidden.`);
    const { intro, rest } = splitIntroduction(html);
    expect(intro).toContain("First");
    expect(intro).toContain("Second");
    expect(intro).not.toContain("<h2>");
    expect(rest.trimStart().startsWith("<h2>Later</h2>")).toBe(true);
    expect(rest).toContain("Also hidden.");
    expect(intro + rest).toBe(html);
  });

  it("without a heading (or one too far in) takes the first two paragraphs at most, about a quarter", () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `<p>Paragraph ${i} ${words(20)}</p>`).join("\n");
    const { intro, rest } = splitIntroduction(paragraphs);
    expect(intro).toContain("Paragraph 0");
    expect(intro).toContain("Paragraph 1");
    expect(intro).not.toContain("Paragraph 2");
    expect(rest).toContain("Paragraph 7");

    const late = `${Array.from({ length: 6 }, (_, i) => `<p>Early ${i} ${words(20)}</p>`).join("")}<h2>Late</h2><p>${words(20)}</p>`;
    expect(splitIntroduction(late).intro).not.toContain("Early 2");

    // a long first paragraph is a quarter on its own
    const long = `<p>Long ${words(200)}</p><p>Next ${words(50)}</p><p>Then ${words(50)}</p>`;
    expect(splitIntroduction(long).intro).not.toContain("Next");
  });

  it("never gives away everything, and never nothing", () => {
    const two = "<h2>Heading first</h2><p>Only paragraph</p>";
    const split = splitIntroduction(two);
    expect(split.intro).toBe("<h2>Heading first</h2>");
    expect(split.rest).toBe("<p>Only paragraph</p>");
    expect(splitIntroduction("<p>Alone</p>")).toEqual({ intro: "<p>Alone</p>", rest: "" });
  });

  it("splits the premium local articles after their opening paragraphs", () => {
    const premium = getLocalArticles().filter((a) => a.premium);
    expect(premium.length).toBeGreaterThan(0);
    for (const a of premium) {
      const { intro, rest } = splitIntroduction(a.contentHtml);
      expect(intro, a.slug).toMatch(/^<p>/);
      expect(intro, a.slug).not.toContain("<h2>");
      expect(rest.length, a.slug).toBeGreaterThan(intro.length * 3);
    }
  });
});

describe("isGeneratedPremium", () => {
  it("marks about a third of the long-form generated articles, the same ones every time, and no short ones", () => {
    const days = ["2026-05-01", "2026-07-19", "2026-11-02"];
    const articles = days.flatMap((d) => generateBatch(d, "initial"));
    const premium = articles.filter((a) => isGeneratedPremium(a.slug, a.longForm));
    expect(premium.every((a) => a.longForm)).toBe(true);
    const longForm = articles.filter((a) => a.longForm).length;
    expect(premium.length / longForm).toBeGreaterThan(0.2);
    expect(premium.length / longForm).toBeLessThan(0.47);
    // the same day generated again (another server, another request) marks the same articles
    const again = days.flatMap((d) => generateBatch(d, "initial")).filter((a) => isGeneratedPremium(a.slug, a.longForm));
    expect(again.map((a) => a.slug)).toEqual(premium.map((a) => a.slug));
    expect(isGeneratedPremium(premium[0]!.slug, false)).toBe(false);
  });
});

describe("articleBodyFor", () => {
  const html = `<p>Intro ${words(20)}</p>\n<h2>Deep</h2>\n<p>Secret sentence.</p>`;

  it("sends a free article whole to everyone", () => {
    expect(articleBodyFor({ premium: false, contentHtml: html }, { entitled: false, signedIn: false })).toEqual({ kind: "free", html });
  });

  it("sends a premium article's rest only to an entitled reader", () => {
    const full = articleBodyFor({ premium: true, contentHtml: html }, { entitled: true, signedIn: true });
    expect(full.kind).toBe("premium");
    expect(JSON.stringify(full)).toContain("Secret sentence.");
    for (const signedIn of [false, true]) {
      const locked = articleBodyFor({ premium: true, contentHtml: html }, { entitled: false, signedIn });
      expect(locked).toEqual({ kind: "locked", introHtml: `<p>Intro ${words(20)}</p>`, signedIn });
      expect(JSON.stringify(locked)).not.toContain("Secret");
    }
  });
});

describe("premiumJsonLd", () => {
  it("marks a premium article as not free, naming the premium element", () => {
    expect(premiumJsonLd(true)).toEqual({
      isAccessibleForFree: false,
      hasPart: { "@type": "WebPageElement", isAccessibleForFree: false, cssSelector: `.${PREMIUM_CONTENT_CLASS}` },
    });
    expect(premiumJsonLd(false)).toEqual({});
  });
});
