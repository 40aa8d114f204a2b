import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { FORMAT_CATALOG } from "#engine/formats.ts";
import type { FormatId, FormatOption, VideoDetails as Details } from "#engine/types.ts";
import { FormatPicker } from "./format-picker.tsx";
import { FormatButton } from "./format-button.tsx";
import { UrlForm } from "./url-form.tsx";
import { VideoDetails } from "./video-details.tsx";
import { DownloadProgress, progressText } from "./download-progress.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const video: Details = {
  id: "vidfetchAll",
  title: "Sample clip in every quality",
  description: "A short generated test pattern.",
  thumbnail: "https://i.ytimg.com/vi/vidfetchAll/maxresdefault.jpg",
  channelTitle: "VidFetch Samples",
  channelId: "UCvidfetchMockChannel01",
  channelThumbnail: "",
  isMonetized: true,
  subscriberCount: "48.2K",
  publishedAt: "Jun 3, 2026",
  duration: "0:06",
  viewCount: "1.2M views",
  likeCount: "45.7K",
  tags: ["sample", "test pattern"],
  downloadUrl: "https://www.youtube.com/watch?v=vidfetchAll",
  platform: "youtube",
  durationSeconds: 6,
  embedUrl: "https://www.youtube-nocookie.com/embed/vidfetchAll",
};

const option = (o: Partial<FormatOption> & Pick<FormatOption, "id" | "label" | "icon">): FormatOption => ({
  quality: "q",
  format: "F",
  size: "709 KB",
  available: true,
  premium: false,
  bytes: 708559,
  ...o,
});

/**
 * What a screen reader announces for each control of the markup (accessible name from content):
 * aria-label when present, otherwise the text with aria-hidden parts left out, spaces collapsed.
 */
function controlNames(html: string): string[] {
  return [...html.matchAll(/<(button|a)\b([^>]*)>([\s\S]*?)<\/\1>/g)].map(([, , attrs, inner]) => {
    const label = /aria-label="([^"]*)"/.exec(attrs!)?.[1];
    const text = label ?? inner!.replace(/<(\w+)[^>]*aria-hidden="true"[^>]*>[\s\S]*?<\/\1>/g, "").replace(/<[^>]+>/g, "");
    return text.replace(/&amp;/g, "&").replace(/\s+/g, " ").trim();
  });
}

/** The names of the controls inside one format row (`data-format-id`). */
function rowControlNames(html: string, id: FormatId): string[] {
  const row = new RegExp(`<li[^>]*data-format-id="${id}"[^>]*>([\\s\\S]*?)</li>`).exec(html);
  if (!row) throw new Error(`no row for ${id}`);
  return controlNames(row[1]!);
}

describe("link form markup", () => {
  it("labels the field and keeps an announced message slot", () => {
    const html = render(<UrlForm value="" onChange={() => {}} onSubmit={() => {}} busy={false} />);
    expect(html).toMatch(/<label[^>]*class="sr-only"[^>]*>Video URL<\/label>/);
    expect(html).toMatch(/role="alert"/);
    expect(html).not.toContain("Clear URL");
  });

  it("shows the invalid message, disables Download and offers the clear button", () => {
    const html = render(<UrlForm value="not a link" onChange={() => {}} onSubmit={() => {}} busy={false} />);
    expect(html).toContain("Please enter a valid video link");
    expect(html).toContain('aria-invalid="true"');
    expect(html).toMatch(/<button[^>]*type="submit" disabled=""/);
    expect(html).toContain('aria-label="Clear URL"');
  });

  it("names the platform of a recognised non-YouTube link", () => {
    const html = render(<UrlForm value="https://www.facebook.com/watch/?v=1234567890" onChange={() => {}} onSubmit={() => {}} busy={false} />);
    expect(html).toContain("Facebook link");
    expect(html).not.toContain('aria-invalid="true"');
  });

  it("reads Processing... with the field disabled while busy", () => {
    const html = render(<UrlForm value="https://youtu.be/vidfetchAll" onChange={() => {}} onSubmit={() => {}} busy />);
    expect(html).toContain("Processing...");
    expect(html).toMatch(/<input[^>]*disabled=""/);
  });
});

describe("details markup", () => {
  it("shows every field of the spec's video details", () => {
    const html = render(<VideoDetails video={video} />);
    for (const text of ["Sample clip in every quality", "VidFetch Samples", "48.2K subscribers", "Jun 3, 2026", "0:06", "1.2M views", "45.7K", "#sample", "Monetized channel", "A short generated test pattern."]) {
      expect(html).toContain(text);
    }
  });
});

describe("format picker markup", () => {
  const formats = [
    option({ id: "mp4-720", label: "MP4 720p HD", icon: "video" }),
    option({ id: "mp4-1080", label: "MP4 1080p Full HD", icon: "video", available: false, note: "No 1080p stream for this video" }),
    option({ id: "mp4-2160", label: "MP4 2160p 4K", icon: "video", premium: true, note: "Premium feature" }),
    option({ id: "mp3-128", label: "MP3 128 Standard", icon: "audio" }),
  ];

  it("has the three tabs and, in Video, ready, unavailable and locked options", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl="https://youtu.be/vidfetchAll" />);
    expect(html).toContain(">Video<");
    expect(html).toContain(">Audio Only<");
    expect(html).toContain(">Other<");
    expect(html).toContain("709 KB");
    expect(html).toContain("Not available: No 1080p stream for this video");
    expect(html).toMatch(/href="\/premium"[^>]*>.*Unlock/);
    expect(html).toContain("Premium feature");
  });

  it("names every format's button after its format, not just Download", () => {
    const catalogue = (id: FormatId, o: Partial<FormatOption> = {}) => option({ id, label: FORMAT_CATALOG[id].label, icon: FORMAT_CATALOG[id].icon, ...o });
    const video = render(<FormatPicker formats={[catalogue("mp4-720"), catalogue("mp4-1080"), catalogue("webm"), catalogue("mp4-480", { available: false }), catalogue("mp4-2160", { premium: true })]} sourceUrl="https://youtu.be/vidfetchAll" />);
    expect(rowControlNames(video, "mp4-720")).toEqual(["Download MP4 720p HD"]);
    expect(rowControlNames(video, "mp4-1080")).toEqual(["Download MP4 1080p Full HD"]);
    expect(rowControlNames(video, "webm")).toEqual(["Download WEBM Original"]);
    expect(rowControlNames(video, "mp4-480")).toEqual(["Unavailable MP4 480p SD"]);
    expect(rowControlNames(video, "mp4-2160")).toEqual(["Unlock MP4 2160p 4K with Premium"]);

    const audio = render(<FormatPicker formats={[catalogue("mp3-128"), catalogue("m4a")]} sourceUrl="https://youtu.be/vidfetchAll" tabs={["audio"]} />);
    expect(rowControlNames(audio, "mp3-128")).toEqual(["Download MP3 128 Standard"]);
    expect(rowControlNames(audio, "m4a")).toEqual(["Download M4A Audio High Quality"]);
    const other = render(<FormatPicker formats={[catalogue("thumbnail-hd"), catalogue("transcript")]} sourceUrl="https://youtu.be/vidfetchAll" tabs={["other"]} />);
    expect(rowControlNames(other, "thumbnail-hd")).toEqual(["Download Thumbnail HD JPG"]);
    expect(rowControlNames(other, "transcript")).toEqual(["Download Video Transcript TXT"]);
  });

  it("lets premium visitors download premium formats", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl="https://youtu.be/vidfetchAll" isPremium />);
    expect(html).not.toContain('href="/premium"');
  });
});

describe("format button and progress", () => {
  it("shows the attempt while retrying and names the format for screen readers", () => {
    const html = render(<FormatButton label="MP4 720p HD" state="downloading" attempt={2} disabled={false} onClick={() => {}} />);
    expect(html).toContain("Retrying (2/3)");
    expect(html).toContain(`<span class="sr-only"> MP4 720p HD</span>`);
    expect(html).toContain('data-state="downloading"');
  });

  it("keeps the format in the button's name in every state", () => {
    const name = (state: "idle" | "downloading" | "success" | "error", attempt = 1) =>
      controlNames(render(<FormatButton label="MP3 128 Standard" state={state} attempt={attempt} disabled={false} onClick={() => {}} />));
    expect(name("idle")).toEqual(["Download MP3 128 Standard"]);
    expect(name("downloading")).toEqual(["Downloading... MP3 128 Standard"]);
    expect(name("downloading", 3)).toEqual(["Retrying (3/3) MP3 128 Standard"]);
    expect(name("success")).toEqual(["Done MP3 128 Standard"]);
    expect(name("error")).toEqual(["Failed MP3 128 Standard"]);
  });

  it("reports percent, bytes and speed, and never 100 % before the end", () => {
    const base = { formatId: "mp4-720", label: "MP4 720p HD", attempt: 1 } as const;
    expect(progressText({ ...base, phase: "downloading", progress: { bytes: 354_000, total: 708_000, speed: 1_000_000, state: "streaming" } })).toBe("50% · 354 KB of 708 KB · 1.0 MB/s");
    expect(progressText({ ...base, phase: "downloading", progress: { bytes: 710_000, total: 708_000, speed: 0, state: "streaming" } })).toMatch(/^99%/);
    expect(progressText({ ...base, phase: "success", progress: { bytes: 707_311, total: null, speed: 0, state: "done" } })).toBe("100% · 707 KB");
    // a split by chapter: a ZIP of unknown size, counted in files
    const files = (done: number, failed = 0) => ({ total: 3, done, failed, items: [] });
    expect(progressText({ ...base, phase: "downloading", progress: { bytes: 354_000, total: null, speed: 1_000_000, state: "streaming", files: files(1) } })).toBe("354 KB · 1 of 3 files · 1.0 MB/s");
    expect(progressText({ ...base, phase: "success", progress: { bytes: 900_000, total: null, speed: 0, state: "done", files: files(2, 1) } })).toBe("100% · 900 KB · 2 of 3 files, 1 failed");
    const html = render(<DownloadProgress active={{ ...base, phase: "downloading", progress: { bytes: 354_000, total: 708_000, speed: 0, state: "streaming" } }} />);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-valuenow="50"');
    expect(html).toContain("Downloading MP4 720p HD");
  });
});

describe("the preview's reason when there is none", () => {
  it("says why for DASH, for HLS without native support, and for a host the browser cannot reach", async () => {
    const { noPreviewReason } = await import("./video-player.tsx");
    expect(noPreviewReason("dash", false, "https://cdn.example/a.mpd")).toMatch(/DASH stream without a player library/);
    expect(noPreviewReason("hls", false, "https://cdn.example/a.m3u8")).toMatch(/cannot play HLS streams on its own/);
    expect(noPreviewReason("file", true, "https://media.example.test/files/a.mp4")).toMatch(/could not be loaded from media\.example\.test/);
    for (const kind of ["dash", "hls", "file"] as const) expect(noPreviewReason(kind, true, "x")).toMatch(/download below works/);
  });
});
