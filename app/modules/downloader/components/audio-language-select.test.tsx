import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import { requestDownload } from "../api-client.ts";
import { AudioLanguageSelect } from "./audio-language-select.tsx";
import { FormatPicker } from "./format-picker.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const option = (id: string, icon: FormatOption["icon"]): FormatOption => ({ id, label: id, icon, quality: "q", format: "F", size: "6 MB", available: true, premium: false, bytes: 6_000_000 }) as FormatOption;
const TRACKS = [
  { language: "en", name: "English original", default: true },
  { language: "de", name: "German", default: false },
];

describe("the audio language choice (issue 33 §5)", () => {
  it("is a labelled select: the original first (its value empty), then the other tracks by name", () => {
    const html = render(<AudioLanguageSelect tracks={TRACKS} value="" onChange={() => {}} />);
    const select = /<select id="([^"]+)" name="audioLanguage"[^>]*aria-describedby="([^"]+)"/.exec(html);
    expect(select).not.toBeNull();
    expect(html).toMatch(new RegExp(`<label[^>]*for="${select![1]}"[^>]*>Audio language</label>`));
    expect(html).toContain(`id="${select![2]}"`);
    expect(html).toMatch(/<option value="" selected="">English original \(original\)<\/option><option value="de">German<\/option>/);
  });

  it("sits above the video and audio formats only when the video has more than one track", () => {
    const picker = (formats: FormatOption[], tabs: Array<"video" | "audio" | "other">, audioTracks = TRACKS) =>
      render(<FormatPicker formats={formats} sourceUrl="https://youtu.be/vidfetchDub" tabs={tabs} audioTracks={audioTracks} />);
    expect(picker([option("mp4-720", "video")], ["video"])).toContain('data-testid="audio-language"');
    expect(picker([option("mp3-128", "audio")], ["audio"])).toContain('data-testid="audio-language"');
    expect(picker([option("thumbnail-hd", "image")], ["other"])).not.toContain('data-testid="audio-language"');
    expect(picker([option("mp4-720", "video")], ["video"], TRACKS.slice(0, 1))).not.toContain('data-testid="audio-language"');
  });

  it("is posted as audioLanguage, and nothing when the original is kept", async () => {
    const bodies: unknown[] = [];
    const fetchFn = async (_url: RequestInfo | URL, init?: RequestInit) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ id: "a", downloadUrl: "/api/v1/dl/x", filename: "f.mp4", expiresAt: "t", bytes: null }), { status: 200, headers: { "content-type": "application/json" } });
    };
    await requestDownload("https://youtu.be/vidfetchDub", "mp4-720", { fetchFn, audioLanguage: "de" });
    await requestDownload("https://youtu.be/vidfetchDub", "mp4-720", { fetchFn });
    expect(bodies).toEqual([
      { url: "https://youtu.be/vidfetchDub", format: "mp4-720", audioLanguage: "de" },
      { url: "https://youtu.be/vidfetchDub", format: "mp4-720" },
    ]);
  });
});
