import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import type { SubtitleTrackAnswer } from "../api-client.ts";
import { FormatPicker } from "./format-picker.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const option = (id: string, label: string, icon: FormatOption["icon"], premium = false): FormatOption => ({ id, label, icon, quality: "q", format: "F", size: "1 KB", available: true, premium, bytes: 1000 }) as FormatOption;
const formats = [option("mp4-720", "MP4 720p HD", "video"), option("thumbnail-hd", "Thumbnail HD", "image"), option("transcript", "Video Transcript", "text"), option("srt", "SRT Subtitles", "text", true), option("vtt", "VTT Subtitles", "text", true)];
const subtitles: SubtitleTrackAnswer[] = [
  { language: "en", name: "English", auto: false, translatable: true },
  { language: "en", name: "English (auto-generated)", auto: true, translatable: true },
  { language: "de", name: "German", auto: false, translatable: false },
];
const subtitleTranslations = [{ language: "fr", name: "French" }];
const url = "https://www.youtube.com/watch?v=vidfetchSub";

/** The `<select>` with its label, in the Other tab (rendered first here). */
function select(html: string) {
  const m = /<select([^>]*)>([\s\S]*?)<\/select>/.exec(html);
  if (!m) throw new Error("no select");
  return { attrs: m[1]!, inner: m[2]! };
}

describe("subtitle language select", () => {
  it("is labelled, starts on Best available, and groups the video's tracks and the translations", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl={url} tabs={["other"]} subtitles={subtitles} subtitleTranslations={subtitleTranslations} canChooseLanguage />);
    const { attrs, inner } = select(html);
    const id = /id="([^"]+)"/.exec(attrs)![1]!;
    expect(html).toContain(`<label class="text-sm font-medium text-slate-800" for="${id}">Subtitle language</label>`);
    expect(attrs).not.toContain('disabled=""');
    expect(inner).toMatch(/^<option value="" selected="">Best available \(English first\)<\/option>/);
    expect(inner).toContain('<optgroup label="Subtitles of this video"><option value="en">English</option><option value="de">German</option></optgroup>');
    expect(inner).toContain('<optgroup label="Auto-translated"><option value="fr">French (auto-translated)</option></optgroup>');
    expect(html).not.toContain("Choosing a language comes with the Pro and Ultimate plans.");
  });

  it("is disabled for a plan without the right, saying which plans have it and linking to them", () => {
    const html = render(<FormatPicker formats={formats} sourceUrl={url} tabs={["other"]} subtitles={subtitles} subtitleTranslations={subtitleTranslations} />);
    const { attrs } = select(html);
    expect(attrs).toContain('disabled=""');
    const described = /aria-describedby="([^"]+)"/.exec(attrs)![1]!;
    expect(html).toMatch(new RegExp(`<p id="${described}"[^>]*>Choosing a language comes with the Pro and Ultimate plans\\. <a[^>]*href="/premium"[^>]*>See the plans</a>`));
  });

  it("is not there for a video without subtitles, nor in a tab without subtitle formats", () => {
    expect(render(<FormatPicker formats={formats} sourceUrl={url} tabs={["other"]} canChooseLanguage />)).not.toContain("<select");
    expect(render(<FormatPicker formats={formats} sourceUrl={url} tabs={["other"]} subtitles={[]} subtitleTranslations={subtitleTranslations} canChooseLanguage />)).not.toContain("<select");
    // the Video tab's select is the one for subtitles in the video (subtitles-in-video.test.tsx)
    expect(render(<FormatPicker formats={formats} sourceUrl={url} tabs={["video"]} subtitles={subtitles} canChooseLanguage />)).not.toContain('data-testid="subtitle-language"');
  });
});
