/** The playlist card and a ZIP's per-file progress: what each plan is offered, what is posted, how file states read. */
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { PlaylistAnswer } from "../api-client.ts";
import { IDLE_ZIP, type ZipDownload } from "../hooks/use-zip-download.ts";
import { playlistPlanOf } from "../downloader-offer.server.ts";
import { parseProgress } from "../run-download.ts";
import { clockOf, PlaylistPicker, playlistCountText, selectionText, zipRequestOf } from "./playlist-picker.tsx";
import { fileStateText, ZipFileList } from "./zip-progress.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const playlist: PlaylistAnswer = {
  title: "VidFetch sample playlist",
  url: "https://www.youtube.com/playlist?list=PLvidfetchSamples01",
  total: 3,
  entries: [
    { url: "https://www.youtube.com/watch?v=vidfetchAll", title: "Sample clip in every quality", duration: 6, thumbnail: "https://i.ytimg.com/vi/vidfetchAll/mqdefault.jpg" },
    { url: "https://www.youtube.com/watch?v=vidfetch720", title: "Sample clip up to 720p", duration: 3723, thumbnail: null },
    { url: "https://www.youtube.com/watch?v=vidfetchCap", title: "Sample clip with captions", duration: null, thumbnail: "https://i.ytimg.com/vi/vidfetchCap/mqdefault.jpg" },
  ],
};

describe("the playlist card's wording", () => {
  it("writes durations as m:ss or h:mm:ss", () => {
    expect(clockOf(6)).toBe("0:06");
    expect(clockOf(245)).toBe("4:05");
    expect(clockOf(3723)).toBe("1:02:03");
  });

  it("counts the videos, and says when only the first ones are listed", () => {
    expect(playlistCountText(playlist)).toBe("3 videos");
    expect(playlistCountText({ total: 1, entries: playlist.entries.slice(0, 1) })).toBe("1 video");
    expect(playlistCountText({ total: null, entries: playlist.entries })).toBe("3 videos");
    expect(playlistCountText({ total: 240, entries: playlist.entries })).toBe("240 videos; only the first 3 are shown");
  });

  it("counts the selection, and names the plan's limit once it is over", () => {
    expect(selectionText([true, false, true], 50)).toEqual({ text: "2 of 3 selected", over: false });
    expect(selectionText([false, false, false], 50)).toEqual({ text: "0 of 3 selected", over: false });
    expect(selectionText([true, true, true], 2)).toEqual({ text: "3 of 3 selected (a ZIP takes at most 2)", over: true });
  });
});

describe("what Download ZIP posts", () => {
  it("sends the checked videos in the playlist's order, the format and the playlist's title", () => {
    expect(zipRequestOf(playlist, [true, false, true], "mp4-360")).toEqual({
      urls: ["https://www.youtube.com/watch?v=vidfetchAll", "https://www.youtube.com/watch?v=vidfetchCap"],
      format: "mp4-360",
      name: "VidFetch sample playlist",
    });
    expect(zipRequestOf(playlist, [false, true, false], "mp3-128").urls).toEqual(["https://www.youtube.com/watch?v=vidfetch720"]);
  });
});

describe("PlaylistPicker", () => {
  const pick = () => {};

  it("offers Ultimate a labelled checkbox per video, all checked, the count, every format of the plan and the ZIP button", () => {
    const html = render(<PlaylistPicker playlist={playlist} plan={playlistPlanOf("ultimate")} onPickVideo={pick} />);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Videos in the ZIP<\/legend>/);
    const boxes = [...html.matchAll(/<input id="([^"]+)" type="checkbox"([^>]*)>/g)];
    expect(boxes).toHaveLength(3);
    for (const [, , attrs] of boxes) expect(attrs).toContain('checked=""');
    for (const [i, [, id]] of boxes.entries()) expect(html).toContain(`<label for="${id}" class="font-medium text-slate-900 [overflow-wrap:anywhere]">${playlist.entries[i]!.title}</label>`);
    expect(html).toContain("3 of 3 selected");
    expect(html).toContain("Select all");
    expect(html).toContain("Select none");
    expect(html).toMatch(/<option value="mp4-720" selected="">/);
    expect(html).toContain('<option value="mp4-2160">');
    expect(html).toMatch(/<button [^>]*type="submit">Download ZIP<\/button>/);
    expect(html).not.toContain("comes with the Ultimate plan");
  });

  it("lists the videos with a fixed-size decorative thumbnail and their duration", () => {
    const html = render(<PlaylistPicker playlist={playlist} plan={playlistPlanOf("ultimate")} onPickVideo={pick} />);
    expect(html).toContain('<img src="https://i.ytimg.com/vi/vidfetchAll/mqdefault.jpg" alt="" width="96" height="54"');
    expect(html).toContain("0:06");
    expect(html).toContain("1:02:03");
    expect(html).toContain('<h2 id="');
    expect(html).toContain("VidFetch sample playlist</h2>");
    expect(html).toContain("3 videos");
  });

  it("shows a visitor the videos, a way to download each one and which plan has the ZIP, but no ZIP", () => {
    const html = render(<PlaylistPicker playlist={playlist} plan={playlistPlanOf(null)} onPickVideo={pick} />);
    expect(html).toContain("Downloading a playlist as one ZIP comes with the Ultimate plan.");
    expect(html).toMatch(/<a[^>]*href="\/premium"[^>]*>See the plans<\/a>/);
    expect(html).not.toContain('type="checkbox"');
    expect(html).not.toContain("Download ZIP");
    expect(html).not.toContain("<select");
    expect(html).toContain('aria-label="Videos in this playlist"');
    for (const entry of playlist.entries) expect(html).toContain(`aria-label="Download this video: ${entry.title}"`);
  });
});

describe("a ZIP's progress, file by file", () => {
  const event = parseProgress(
    JSON.stringify({
      bytes: 3_000_000,
      total: null,
      state: "streaming",
      files: {
        total: 4,
        done: 2,
        failed: 1,
        items: [
          { status: "done", title: "Sample clip in every quality" },
          { status: "failed", title: null, error: "This video is private." },
          { status: "running", title: "Sample clip with captions" },
          { status: "pending", title: null },
        ],
      },
    }),
  )!;
  const links = ["https://youtu.be/vidfetchAll", "https://youtu.be/vidfetchPrv", "https://youtu.be/vidfetchCap", "https://youtu.be/vidfetch720"];
  const zip: ZipDownload = { ...IDLE_ZIP, phase: "saving", filename: "VidFetch bulk 2026-11-27.zip", bytes: event.bytes, files: event.files! };

  it("names each state", () => {
    expect(event.files!.items.map(fileStateText)).toEqual(["Saved", "Failed: This video is private.", "Downloading", "Waiting"]);
    expect(fileStateText(undefined)).toBe("Waiting");
    expect(fileStateText({ status: "failed", title: null })).toBe("Failed");
  });

  it("lists each link, or its title once known, with its state, the files so far and the bytes", () => {
    const html = render(<ZipFileList zip={zip} links={links} />);
    const rows = [...html.matchAll(/<li[^>]*data-testid="zip-file"[^>]*>([\s\S]*?)<\/li>/g)].map(([, row]) => row!.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim());
    expect(rows).toEqual([
      "Sample clip in every quality Saved",
      "https://youtu.be/vidfetchPrv Failed: This video is private.",
      "Sample clip with captions Downloading",
      "https://youtu.be/vidfetch720 Waiting",
    ]);
    expect(html).toMatch(/<span role="status" aria-live="polite">2 of 4 files, 1 failed<\/span>/);
    expect(html).toContain("3.0 MB so far");
  });

  it("shows nothing before the ZIP's link exists, or when its progress cannot be followed, and no rows before the files are reported", () => {
    expect(render(<ZipFileList zip={{ ...IDLE_ZIP, phase: "preparing" }} links={links} />)).toBe("");
    expect(render(<ZipFileList zip={{ ...zip, phase: "done", files: null, untracked: true }} links={links} />)).toBe("");
    const early = render(<ZipFileList zip={{ ...zip, bytes: 0, files: null }} links={links} />);
    expect(early).toContain("Starting the ZIP...");
    expect(early).not.toContain("<li");
  });
});
