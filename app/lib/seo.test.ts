import { describe, expect, it } from "vitest";
import { absoluteUrl } from "./seo.ts";

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
