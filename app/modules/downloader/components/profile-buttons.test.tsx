/**
 * The format picker's "Your profiles" row (issue 31 §2): one button a profile above the formats,
 * and a press asks POST /api/v1/downloads for the link with the profile's id (the server takes
 * its format, language and file name), then saves it like every other download.
 */
import { isValidElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import { requestDownload, type DownloadTicket } from "../api-client.ts";
import { profileKey, type ActiveDownload } from "../hooks/use-format-downloads.ts";
import type { DownloadProfileChoice } from "../downloader-offer.ts";
import { runDownload, type ProgressSubscribe } from "../run-download.ts";
import { FormatPicker } from "./format-picker.tsx";
import { ProfileButtons } from "./profile-buttons.tsx";

function render(node: ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const formats: FormatOption[] = [
  { id: "mp4-720", label: "MP4 720p HD", quality: "720p", format: "MP4", size: "709 KB", available: true, premium: false, bytes: 708559, icon: "video" },
  { id: "mp4-360", label: "MP4 360p SD", quality: "360p", format: "MP4", size: "300 KB", available: true, premium: false, bytes: 300000, icon: "video" },
];

const archive: DownloadProfileChoice = { id: "p1", name: "Archive", format: "mp4-360" };
const subs: DownloadProfileChoice = { id: "p2", name: "German subs", format: "srt" };

/** every element of a rendered tree (host elements only: the component has no hooks of its own) */
function elements(node: ReactNode): ReactElement<Record<string, unknown>>[] {
  if (Array.isArray(node)) return node.flatMap(elements);
  if (!isValidElement<Record<string, unknown>>(node)) return [];
  return [node, ...elements(node.props.children as ReactNode)];
}

describe("the profiles row", () => {
  it("sits above the format list of a viewer with profiles: one button a profile, with its format", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl="https://www.youtube.com/watch?v=vidfetchAll" profiles={[archive, subs]} />);
    expect(html).toContain(">Your profiles</h3>");
    expect(html).toMatch(/<button[^>]*>.*?Download with Archive<\/span><\/button><span[^>]*>MP4 360p SD</);
    expect(html).toContain("Download with German subs");
    // a format this video does not list is named by its id
    expect(html).toMatch(/Download with German subs<\/span><\/button><span[^>]*>srt</);
    expect(html.indexOf("Your profiles")).toBeLessThan(html.indexOf('data-testid="format-mp4-720"'));
  });

  it("is not there for a viewer without profiles", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl="https://www.youtube.com/watch?v=vidfetchAll" />);
    expect(html).not.toContain("Your profiles");
    expect(html).not.toContain("Download with");
  });

  it("hands the pressed profile on, waits while another download runs, and shows a failure under its own button", () => {
    const pressed: DownloadProfileChoice[] = [];
    const props = { profiles: [archive, subs], formatLabel: (id: string) => id, failure: null, offline: false, onDownload: (p: DownloadProfileChoice) => pressed.push(p) };
    const buttons = elements(ProfileButtons({ ...props, active: null })).filter((e) => e.type !== "li" && typeof e.props.onClick === "function");
    expect(buttons).toHaveLength(2);
    (buttons[1]!.props.onClick as () => void)();
    expect(pressed).toEqual([subs]);

    const running: ActiveDownload = { formatId: profileKey("p1"), label: "Archive", phase: "downloading", attempt: 1, progress: null };
    const html = render(<ProfileButtons {...props} active={running} failure={{ formatId: profileKey("p2"), message: "That format is not available for this video." }} />);
    expect(html).toMatch(/<button[^>]*aria-disabled="true"[^>]*data-state="downloading"[^>]*>.*?Download with Archive/);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*data-state="idle"[^>]*>.*?Download with German subs/);
    expect(html).toMatch(/role="alert"[^>]*>That format is not available for this video\./);
  });

  it("waits for the connection when offline: a profile is not queued", () => {
    const html = render(<ProfileButtons profiles={[archive]} formatLabel={(id) => id} active={null} failure={null} offline onDownload={() => {}} />);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>.*?Download with Archive/);
    expect(html).toContain("Profiles need a connection");
  });
});

describe("a profile's download", () => {
  it("posts the link and the profile's id, without a format of its own", async () => {
    const calls: RequestInit[] = [];
    const fetchFn = (async (_url: string, init: RequestInit) => {
      calls.push(init);
      return new Response(JSON.stringify({ id: "d1", downloadUrl: "/api/v1/dl/t", filename: "VidFetch Samples - Sample clip in every quality [vidfetchAll].mp4", expiresAt: "t", bytes: null }), { status: 200 });
    }) as unknown as typeof fetch;
    const ticket = await requestDownload("https://www.youtube.com/watch?v=vidfetchAll", "mp4-360", { fetchFn, profile: "p1", language: "de" });
    expect(JSON.parse(String(calls[0]!.body))).toEqual({ url: "https://www.youtube.com/watch?v=vidfetchAll", profile: "p1" });
    expect(ticket.filename).toBe("VidFetch Samples - Sample clip in every quality [vidfetchAll].mp4");
  });

  it("is run like any download: the profile reaches the request, and the browser saves the server's file name", async () => {
    const ticket: DownloadTicket = { id: "d1", downloadUrl: "/api/v1/dl/t", filename: "VidFetch Samples - Sample clip in every quality [vidfetchAll].mp4", expiresAt: "t", bytes: 10 };
    const asked: unknown[] = [];
    const saved: string[] = [];
    const subscribe: ProgressSubscribe = (_id, { onEvent }) => {
      queueMicrotask(() => onEvent({ bytes: 10, total: 10, state: "done" }));
      return () => {};
    };
    const outcome = await runDownload(
      { url: "https://www.youtube.com/watch?v=vidfetchAll", format: "mp4-360", profile: "p1" },
      {
        request: async (url, format, opts) => {
          asked.push({ url, format, profile: opts?.profile });
          return ticket;
        },
        subscribe,
        save: (href, name) => saved.push(`${href} ${name}`),
      },
    );
    expect(asked).toEqual([{ url: "https://www.youtube.com/watch?v=vidfetchAll", format: "mp4-360", profile: "p1" }]);
    expect(saved).toEqual(["/api/v1/dl/t VidFetch Samples - Sample clip in every quality [vidfetchAll].mp4"]);
    expect(outcome).toEqual({ ticket, tracked: true });
  });
});
