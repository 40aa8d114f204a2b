/** The Bulk tab: what each plan is offered, and the link list's checks before any request. */
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { BulkPanel, bulkInputProblem, linesOf } from "./bulk-panel.tsx";
import { bulkViewOf } from "./bulk-view.server.ts";
import type { BulkView } from "./dashboard-data.ts";

function render(view: BulkView): string {
  const router = createMemoryRouter([{ path: "/", element: <BulkPanel view={view} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

describe("bulkViewOf", () => {
  it("gives Ultimate its link limit and every format, including the premium ones", () => {
    const view = bulkViewOf({ userId: "u1", plan: "ultimate" });
    expect(view).toMatchObject({ canBulk: true, maxLinks: 50 });
    expect(view.formats.map((f) => f.id)).toEqual(expect.arrayContaining(["mp4-720", "mp4-2160", "srt"]));
  });

  it("tells the other plans which plan has bulk downloads, in the engine's words", () => {
    expect(bulkViewOf({ userId: "u1", plan: "free" })).toMatchObject({ canBulk: false, maxLinks: 0, upgradeText: "Bulk downloads come with the Ultimate plan. Subscribe to use them." });
    expect(bulkViewOf({ userId: "u1", plan: "pro" })).toMatchObject({ canBulk: false, upgradeText: "Bulk downloads come with the Ultimate plan. Change your plan to use them." });
    expect(bulkViewOf({ userId: "u1", plan: "basic" }).formats.map((f) => f.id)).not.toContain("mp4-2160");
  });
});

describe("the link list", () => {
  it("takes one link a line, ignoring blank lines and spaces", () => {
    expect(linesOf(" https://a.example/1 \r\n\n  \nhttps://a.example/2\n")).toEqual(["https://a.example/1", "https://a.example/2"]);
  });

  it("refuses an empty list and more links than the plan allows", () => {
    expect(bulkInputProblem([], 50)).toBe("Paste at least one link, one per line.");
    expect(bulkInputProblem(Array(51).fill("https://a.example/"), 50)).toBe("A bulk download takes at most 50 links; this one has 51.");
    expect(bulkInputProblem(Array(50).fill("https://a.example/"), 50)).toBeNull();
  });
});

describe("BulkPanel", () => {
  it("renders the labelled form, the count, the manifest note and a button that waits for JavaScript", () => {
    const html = render(bulkViewOf({ userId: "u1", plan: "ultimate" }));
    expect(html).toMatch(/for="bulk-links"[^>]*>Links \(one per line\)/);
    expect(html).toMatch(/for="bulk-format"[^>]*>Format/);
    expect(html).toContain("0<!-- --> of <!-- -->50<!-- --> links");
    expect(html).toContain("manifest.csv");
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Download ZIP/);
  });

  it("shows a plan without bulk downloads the reason and the plans page instead of the form", () => {
    const html = render(bulkViewOf({ userId: "u1", plan: "free" }));
    expect(html).toContain("Bulk downloads come with the Ultimate plan. Subscribe to use them.");
    expect(html).toContain('href="/premium"');
    expect(html).not.toContain("Download ZIP");
  });
});
