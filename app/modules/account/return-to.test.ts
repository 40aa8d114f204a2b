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

test("the guard's login URL carries the page and the notice", () => {
  expect(loginUrlFor("/dashboard", "auth-required")).toBe("/login?returnTo=%2Fdashboard&notice=auth-required");
  expect(loginUrlFor("//evil.example")).toBe("/login?returnTo=%2Fdashboard");
});
