import { describe, expect, it } from "vitest";
import { SITE_PAGES } from "#app/modules/site/pages.ts";
import { absoluteUrl, seo } from "./seo.ts";

describe("absoluteUrl", () => {
  const site = "https://vidfetch.example";

  it("joins a site path to the site's origin", () => {
    expect(absoluteUrl(site, "/faq")).toBe("https://vidfetch.example/faq");
    expect(absoluteUrl(site, "/")).toBe("https://vidfetch.example/");
    expect(absoluteUrl(`${site}/`, "/blog/a-b")).toBe("https://vidfetch.example/blog/a-b");
  });

  it("keeps an absolute address as it is", () => {
    expect(absoluteUrl(site, "https://cdn.example/i.png")).toBe("https://cdn.example/i.png");
  });

  it("never reads a request path that starts with two slashes or a backslash as a host", () => {
    // found by the fuzzer: GET /\{%13 made the not-found page's canonical URL throw (a 500)
    expect(absoluteUrl(site, "//%7B%13")).toBe("https://vidfetch.example//%7B%13");
    expect(absoluteUrl(site, "/\\{%13")).toBe("https://vidfetch.example//%7B%13");
    expect(absoluteUrl(site, "//evil.example/x")).toBe("https://vidfetch.example//evil.example/x");
    expect(absoluteUrl(site, "/\\\\{%E1%A4%A9")).toMatch(/^https:\/\/vidfetch\.example\//);
  });
});

describe("page titles", () => {
  it("read as one sentence: at most one colon, no doubled spaces", () => {
    for (const page of SITE_PAGES) {
      const tags = seo([], { path: page.path, title: page.title, description: page.description });
      const title = (tags.find((t) => "title" in t) as { title: string }).title;
      expect(title.split(":").length - 1, title).toBeLessThanOrEqual(1);
      expect(title, title).not.toMatch(/\s{2}/);
      expect(page.description, page.path).not.toMatch(/\s{2}/);
    }
  });
});
