import { expect, test } from "vitest";
import { loginUrlFor, safeReturnTo } from "./return-to.ts";

test.each([
  ["/dashboard", "/dashboard"],
  ["/blog?tag=MP4#top", "/blog?tag=MP4#top"],
  ["/premium?plan=pro", "/premium?plan=pro"],
])("keeps the same-origin path %s", (input, expected) => {
  expect(safeReturnTo(input)).toBe(expected);
});

test.each([null, "", "dashboard", "//evil.example", "/\\evil.example", "/ok\\..\\", "https://evil.example/", "javascript:alert(1)", "/a\nb", "/\t/evil.example", "/" + "a".repeat(2000)])(
  "falls back to /dashboard for %j",
  (input) => {
    expect(safeReturnTo(input)).toBe("/dashboard");
  },
);

// Issue 27 finding 7: inputs that pass the first checks but normalise to "//host" or "/\\host"
test.each([
  "/.//evil.example/phish",
  "/..//evil.example",
  "/%2e%2e//evil.example",
  "/%2E%2E//evil.example",
  "/.%2e//evil.example",
  "/a/../..//evil.example",
  "/././/evil.example",
  "/%2e//evil.example?x=1#y",
  "/.%5c/evil.example",
  "/./%5cevil.example",
  "/..%2f/evil.example",
  "/%2e%2e/%2fevil.example",
  "/.//\\evil.example",
  "/%09/evil.example",
])("never returns a path a browser reads as another host, for %j", (input) => {
  const out = safeReturnTo(input);
  expect(out).toMatch(/^\/(?![/\\]|%2f|%5c)/i);
  expect(new URL(out, "https://vidfetch.test").origin).toBe("https://vidfetch.test");
});

test("a normalised path that stays on the site is still kept", () => {
  expect(safeReturnTo("/blog/../premium?plan=pro")).toBe("/premium?plan=pro");
  expect(safeReturnTo("/./dashboard")).toBe("/dashboard");
});

test("the guard's login URL carries the page and the notice", () => {
  expect(loginUrlFor("/dashboard", "auth-required")).toBe("/login?returnTo=%2Fdashboard&notice=auth-required");
  expect(loginUrlFor("//evil.example")).toBe("/login?returnTo=%2Fdashboard");
});
