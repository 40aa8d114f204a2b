import { describe, expect, it } from "vitest";
import { findRelevantPage } from "./find-relevant-page.ts";

describe("findRelevantPage", () => {
  it.each([
    ["/faqs", "/faq"],
    ["/FAQ/", "/faq"],
    ["/privacy", "/privacy-policy"],
    ["/privacy-polcy", "/privacy-policy"],
    ["/terms", "/terms-and-conditions"],
    ["/tos/terms-of-service", "/terms-and-conditions"],
    ["/how-to", "/how-to-download"],
    ["/howto/downlaod-guide", "/how-to-download"],
    ["/supported", "/supported-sites"],
    ["/platforms/tiktok", "/supported-sites"],
    ["/about", "/about-us"],
    ["/contact", "/contact-us"],
    ["/support/help", "/contact-us"],
    ["/copyright-takedown", "/dmca"],
    ["/disclaimers", "/disclaimer"],
    ["/site-map", "/sitemap"],
    ["/offline", "/connection-status"],
  ])("%s → %s", (missing, expected) => {
    expect(findRelevantPage(missing).path).toBe(expected);
  });

  it.each(["/", "/zzzz", "/x9/qq", "/%E0%A4%A", "/wp-admin.php"])("falls back to the home page for %s", (missing) => {
    expect(findRelevantPage(missing)).toEqual({ path: "/", title: "Home" });
  });

  it("ignores the query string", () => {
    expect(findRelevantPage("/zzz?page=faq").path).toBe("/");
  });

  it("returns the page title for the countdown text", () => {
    expect(findRelevantPage("/faqs")).toEqual({ path: "/faq", title: "Frequently Asked Questions" });
  });
});

it("a made-up path with no real hint goes home rather than to a chance match", () => {
  expect(findRelevantPage("/this-page-does-not-exist-123").path).toBe("/");
});
