import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import type { SubtitleTrackAnswer } from "../api-client.ts";
import { subtitleLanguageChoices } from "../subtitle-languages.ts";
import { FormatPicker } from "./format-picker.tsx";
import { NO_SUBTITLES, SUBTITLES_LOCKED_NOTE, SubtitlesInVideo } from "./subtitles-in-video.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

/** The row of subtitles in the video: its select's attributes and options, and the whole row. */
function row(html: string) {
  const m = /<div[^>]*data-testid="subtitles-in-video">([\s\S]*?)<\/select>([\s\S]*?)(?=<div[^>]*data-testid="(?!subtitles)|<ul|$)/.exec(html);
  if (!m) throw new Error("no subtitles-in-video row");
  const select = /<select([^>]*)>([\s\S]*)$/.exec(m[1]!)!;
  return { attrs: select[1]!, options: select[2]!, after: m[2]! };
}

const subtitles: SubtitleTrackAnswer[] = [
  { language: "en", name: "English", auto: false, translatable: true },
  { language: "de", name: "German", auto: false, translatable: false },
];
const translations = [{ language: "fr", name: "French" }];
const choices = subtitleLanguageChoices(subtitles, translations);
const option = (id: string, icon: FormatOption["icon"], extra: Partial<FormatOption> = {}): FormatOption =>
  ({ id, label: id, icon, quality: "q", format: "F", size: "1 MB", available: true, premium: false, bytes: 1_000_000, ...extra }) as FormatOption;
/** SRT as the server lists it for a caller with (allowed) or without the `subtitles` right */
const formats = (allowed: boolean) => [option("mp4-720", "video"), option("webm", "video"), option("mp3-128", "audio"), option("srt", "text", { premium: true, allowed })];
const url = "https://www.youtube.com/watch?v=vidfetchCap";

describe("subtitles in the video (issue 33 §6)", () => {
  it("is a labelled select, Off by default, listing the video's tracks and the translations, described by its hint", () => {
    const html = render(<SubtitlesInVideo choices={choices} value={NO_SUBTITLES} locked={false} onChange={() => {}} />);
    const { attrs, options } = row(html);
    const id = /id="([^"]+)"/.exec(attrs)![1]!;
    expect(html).toMatch(new RegExp(`<label[^>]*for="${id}"[^>]*>Subtitles in the video</label>`));
    expect(attrs).toContain('name="subtitles"');
    expect(attrs).not.toContain('disabled=""');
    expect(options).toMatch(/^<option value="" selected="">Off<\/option><optgroup label="Subtitles of this video"><option value="en">English<\/option><option value="de">German<\/option><\/optgroup><optgroup label="Auto-translated"><option value="fr">French \(auto-translated\)<\/option>/);
    const described = /aria-describedby="([^"]+)"/.exec(attrs)![1]!;
    expect(html).toMatch(new RegExp(`<p id="${described}"[^>]*>For MP4 and WEBM files\\.</p>`));
    // how they go in is asked once a language is picked
    expect(html).not.toContain('type="radio"');
  });

  it("with a language: a labelled choice of a selectable track (the default) or burned into the picture", () => {
    const html = render(<SubtitlesInVideo choices={choices} value={{ language: "de", mode: "soft" }} locked={false} onChange={() => {}} />);
    expect(html).toContain('<option value="de" selected="">German</option>');
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>Show them as<\/legend>/);
    const radios = [...html.matchAll(/<input type="radio"([^>]*)\/>([^<]*)/g)].map((m) => [/value="(\w+)"/.exec(m[1]!)![1], m[2], m[1]!.includes("checked")]);
    expect(radios).toEqual([
      ["soft", "Selectable track", true],
      ["burn", "Burned into the picture", false],
    ]);
    expect(html).toContain("The player can turn them on and off.");
    expect(render(<SubtitlesInVideo choices={choices} value={{ language: "de", mode: "burn" }} locked={false} onChange={() => {}} />)).toContain("the video is re-encoded, which takes longer");
  });

  it("is disabled on Off for a plan without the right, saying so and linking to the plans", () => {
    const html = render(<SubtitlesInVideo choices={choices} value={{ language: "de", mode: "burn" }} locked onChange={() => {}} />);
    const { attrs, options } = row(html);
    expect(attrs).toContain('disabled=""');
    expect(options).toMatch(/^<option value="" selected="">Off<\/option>/);
    const described = /aria-describedby="([^"]+)"/.exec(attrs)![1]!;
    expect(html).toMatch(new RegExp(`<p id="${described}"[^>]*>${SUBTITLES_LOCKED_NOTE} <a[^>]*href="/premium"[^>]*>See the plans</a>`));
    expect(html).not.toContain('type="radio"');
  });

  it("sits in the Video tab of a video with caption tracks and an MP4 or WEBM, locked unless the server allows SRT to the caller", () => {
    const picker = (props: Partial<React.ComponentProps<typeof FormatPicker>>) =>
      render(<FormatPicker formats={formats(true)} sourceUrl={url} tabs={["video"]} subtitles={subtitles} subtitleTranslations={translations} canChooseLanguage {...props} />);
    expect(row(picker({})).attrs).not.toContain('disabled=""');
    expect(row(picker({ formats: formats(false) })).attrs).toContain('disabled=""');
    expect(picker({ subtitles: [] })).not.toContain('data-testid="subtitles-in-video"');
    expect(picker({ tabs: ["audio"] })).not.toContain('data-testid="subtitles-in-video"');
    expect(picker({ formats: [option("mp3-128", "audio"), option("srt", "text", { premium: true, allowed: true })] })).not.toContain('data-testid="subtitles-in-video"');
  });

  it("offers a plan that may not choose the subtitles' language the default track alone", () => {
    const html = render(<FormatPicker formats={formats(true)} sourceUrl={url} tabs={["video"]} subtitles={subtitles} subtitleTranslations={translations} canChooseLanguage={false} />);
    expect(row(html).options).toBe('<option value="" selected="">Off</option><optgroup label="Subtitles of this video"><option value="en">English</option></optgroup>');
  });
});
