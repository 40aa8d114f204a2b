/** The Bulk tab: what each plan is offered, the link list's checks before any request, and the download profiles beside the format. */
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { requestBulkDownload, requestBulkJob } from "#app/modules/downloader/api-client.ts";
import { BulkPanel, BulkProfileChoice, bulkInputProblem, linesOf } from "./bulk-panel.tsx";
import { bulkViewOf } from "./bulk-view.server.ts";
import type { BulkView } from "./dashboard-data.ts";

function render(view: BulkView): string {
  const router = createMemoryRouter([{ path: "/", element: <BulkPanel view={view} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

const archive = { id: "p1", name: "Archive", format: "mp4-360" };
const subs = { id: "p2", name: "German subs", format: "srt" };

/** every element of a rendered tree (the profile choice has no hooks of its own) */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  return [node, ...elements(node.props.children as ReactNode)];
}

/** a fetch that answers `body` and keeps each request's JSON body */
function answering(body: unknown) {
  const sent: unknown[] = [];
  const fetchFn = (async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  return { sent, fetchFn };
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

  it("carries the user's download profiles, and none to a plan without bulk downloads", () => {
    expect(bulkViewOf({ userId: "u1", plan: "ultimate" }, [archive, subs]).profiles).toEqual([archive, subs]);
    expect(bulkViewOf({ userId: "u1", plan: "ultimate" }).profiles).toEqual([]);
    expect(bulkViewOf({ userId: "u1", plan: "pro" }, [archive]).profiles).toEqual([]);
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

describe("the download profiles beside the format", () => {
  it("offers None (pressed) and one button a profile with its format, under the label Profile, beside an enabled Format select", () => {
    const html = render(bulkViewOf({ userId: "u1", plan: "ultimate" }, [archive, subs]));
    expect(html).toMatch(/role="group" aria-labelledby="bulk-profile-label"/);
    expect(html).toMatch(/id="bulk-profile-label"[^>]*>Profile</);
    expect(html).toMatch(/<button[^>]*aria-pressed="true"[^>]*data-testid="bulk-profile-none"[^>]*>.*?None<\/span>/);
    expect(html).toMatch(/<button[^>]*aria-pressed="false"[^>]*data-testid="bulk-profile-p1"[^>]*><span[^>]*>Archive<\/span><span[^>]*>MP4 360p SD<\/span><\/button>/);
    expect(html).toMatch(/<button[^>]*aria-pressed="false"[^>]*data-testid="bulk-profile-p2"[^>]*>.*?German subs<\/span><span[^>]*>Subtitles SRT</);
    expect(html).not.toMatch(/<select[^>]*id="bulk-format"[^>]*disabled=""/);
  });

  it("shows nothing new without profiles", () => {
    const html = render(bulkViewOf({ userId: "u1", plan: "ultimate" }));
    expect(html).not.toContain("bulk-profile");
    expect(html).not.toContain(">Profile<");
  });

  it("presses the chosen profile only, names it in the note, and hands each press on (None: null)", () => {
    const chosen: Array<string | null> = [];
    const tree = BulkProfileChoice({ profiles: [archive, subs], formats: [{ id: "mp4-360", label: "MP4 360p SD" }], chosen: "p2", onChoose: (id) => chosen.push(id) });
    const buttons = elements(tree).filter((e) => typeof e.props.onClick === "function");
    expect(buttons.map((b) => [b.props["data-testid"], b.props["aria-pressed"]])).toEqual([
      ["bulk-profile-none", false],
      ["bulk-profile-p1", false],
      ["bulk-profile-p2", true],
    ]);
    for (const button of buttons) (button.props.onClick as () => void)();
    expect(chosen).toEqual([null, "p1", "p2"]);
    const note = elements(tree).find((e) => e.props.id === "bulk-profile-note");
    expect(note?.props.children).toBe("Every file is downloaded with German subs: its format, subtitle language and file-name template.");
  });

  it("sends the chosen profile's id instead of the format, to the ZIP download and to the server's job", async () => {
    const urls = ["https://youtu.be/vidfetchAll", "https://youtu.be/vidfetchCap"];
    const zip = answering({ id: "b", downloadUrl: "/api/v1/dl/zip.x", filename: "Bulk.zip", expiresAt: "t", bytes: null });
    await requestBulkDownload(urls, "mp4-360", { fetchFn: zip.fetchFn, profile: "p1" });
    await requestBulkDownload(urls, "mp4-720", { fetchFn: zip.fetchFn });
    expect(zip.sent).toEqual([{ urls, profile: "p1" }, { urls, format: "mp4-720" }]);
    const job = answering({ id: "j1", status: "scheduled", runAt: "t" });
    await requestBulkJob(urls, "mp4-360", { fetchFn: job.fetchFn, profile: "p1" });
    await requestBulkJob(urls, "mp4-720", { fetchFn: job.fetchFn });
    expect(job.sent).toEqual([{ urls, profile: "p1" }, { urls, format: "mp4-720" }]);
  });
});
