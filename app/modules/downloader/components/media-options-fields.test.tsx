import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption, Platform } from "#engine/types.ts";
import { FormatPicker } from "./format-picker.tsx";
import { ChaptersSwitch } from "./chapters-switch.tsx";
import { NormalizeSwitch } from "./normalize-switch.tsx";
import { NO_SPONSORBLOCK, SponsorBlockFields } from "./sponsorblock-fields.tsx";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

/** Each <input> as its attributes, with the text of the label it sits in (when it sits in one). */
function inputs(html: string): Array<Record<string, string> & { text: string }> {
  return [...html.matchAll(/<input ([^>]*)\/>([^<]*)/g)].map((m) => ({ ...Object.fromEntries([...m[1]!.matchAll(/([a-z-]+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])), text: m[2]! }));
}

const option = (id: string, icon: FormatOption["icon"]): FormatOption => ({ id, label: id, icon, quality: "q", format: "F", size: "6 MB", available: true, premium: false, bytes: 6_000_000 }) as FormatOption;
const picker = (formats: FormatOption[], tabs: Array<"video" | "audio" | "other">, platform: Platform = "youtube") =>
  render(<FormatPicker formats={formats} sourceUrl="https://youtu.be/vidfetchAll" tabs={tabs} platform={platform} />);

describe("the loudness switch (issue 33 §5)", () => {
  it("is a labelled switch, off by default, described by its hint naming the formats it applies to", () => {
    const html = render(<NormalizeSwitch on={false} onChange={() => {}} />);
    const input = /<input id="([^"]+)" type="checkbox" role="switch"([^>]*)aria-describedby="([^"]+)"/.exec(html);
    expect(input).not.toBeNull();
    expect(input![2]).not.toContain("checked");
    expect(html).toMatch(new RegExp(`<label for="${input![1]}"[^>]*>Even out loudness \\(−14 LUFS\\)</label>`));
    expect(html).toMatch(new RegExp(`<p id="${input![3]}"[^>]*>Applies to MP3, M4A and AAC files`));
    expect(inputs(render(<NormalizeSwitch on onChange={() => {}} />))[0]).toHaveProperty("checked", "");
  });

  it("sits on the Audio tab when it has an MP3, M4A or AAC format, and nowhere else", () => {
    expect(picker([option("mp3-128", "audio"), option("m4a", "audio")], ["audio"])).toContain('data-testid="normalize-switch"');
    expect(picker([option("aac-256", "audio")], ["audio"], "generic")).toContain('data-testid="normalize-switch"');
    expect(picker([option("mp4-720", "video")], ["video"])).not.toContain('data-testid="normalize-switch"');
    expect(picker([option("opus", "audio")], ["audio"])).not.toContain('data-testid="normalize-switch"');
    expect(picker([option("thumbnail-hd", "image")], ["other"])).not.toContain('data-testid="normalize-switch"');
  });
});

describe("the SponsorBlock fieldset (issue 33 §4)", () => {
  it("has a legend, a labelled checkbox per category (none ticked) and a Cut out / Mark as chapters choice", () => {
    const html = render(<SponsorBlockFields value={NO_SPONSORBLOCK} bare={false} onChange={() => {}} />);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>SponsorBlock segments<\/legend>/);
    const boxes = inputs(html).filter((i) => i.type === "checkbox");
    expect(boxes.map((b) => [b.value, b.text])).toEqual([
      ["sponsor", "Sponsor"],
      ["selfpromo", "Self-promotion"],
      ["interaction", "Interaction reminder"],
      ["intro", "Intro"],
      ["outro", "Outro"],
    ]);
    expect(boxes.every((b) => b.name === "sponsorblock-category" && !("checked" in b))).toBe(true);
    expect(html).toMatch(/<fieldset[^>]*><legend[^>]*>With the picked segments<\/legend>/);
    const radios = inputs(html).filter((i) => i.type === "radio");
    expect(radios.map((r) => [r.value, r.text, "checked" in r, "disabled" in r])).toEqual([
      ["cut", "Cut out", true, false],
      ["chapters", "Mark as chapters", false, false],
    ]);
    expect(new Set(radios.map((r) => r.name)).size).toBe(1);
  });

  it("ticks the picked categories and the picked action", () => {
    const ticked = inputs(render(<SponsorBlockFields value={{ categories: ["intro"], action: "chapters" }} bare={false} onChange={() => {}} />)).filter((i) => "checked" in i);
    expect(ticked.map((i) => i.value)).toEqual(["intro", "chapters"]);
  });

  it("turns off Mark as chapters in a bare file, says why, and shows the cut that will be sent", () => {
    const html = render(<SponsorBlockFields value={{ categories: ["sponsor"], action: "chapters" }} bare onChange={() => {}} />);
    const [cut, chapters] = inputs(html).filter((i) => i.type === "radio");
    expect(chapters).toHaveProperty("disabled", "");
    expect(html).toMatch(new RegExp(`<p id="${chapters!["aria-describedby"]}"[^>]*>Chapters are written with the tags, so they cannot be marked while files are left bare.</p>`));
    expect(cut).toHaveProperty("checked", "");
    expect(chapters).not.toHaveProperty("checked");
  });

  it("is offered on the video and audio tabs of a YouTube video only", () => {
    expect(picker([option("mp4-720", "video")], ["video"])).toContain('data-testid="sponsorblock-fields"');
    expect(picker([option("mp3-128", "audio")], ["audio"])).toContain('data-testid="sponsorblock-fields"');
    expect(picker([option("thumbnail-hd", "image")], ["other"])).not.toContain('data-testid="sponsorblock-fields"');
    expect(picker([option("mp4-720", "video")], ["video"], "generic")).not.toContain('data-testid="sponsorblock-fields"');
    expect(render(<FormatPicker formats={[option("mp4-720", "video")]} sourceUrl="https://example.com/a.mp4" tabs={["video"]} />)).not.toContain('data-testid="sponsorblock-fields"');
  });
});

describe("the split by chapter switch (issue 33 §2)", () => {
  const chapters = [
    { title: "Intro", start: 0, end: 2 },
    { title: "Middle", start: 2, end: 4 },
    { title: "End", start: 4, end: 6 },
  ];
  const split = (formats: FormatOption[], tabs: Array<"video" | "audio" | "other">, list = chapters) =>
    render(<FormatPicker formats={formats} sourceUrl="https://youtu.be/vidfetchAll" tabs={tabs} chapters={list} />);

  it("is a labelled switch, off by default, described by the chapter count and the formats it applies to", () => {
    const html = render(<ChaptersSwitch count={3} on={false} onChange={() => {}} />);
    const input = /<input id="([^"]+)" type="checkbox" role="switch"([^>]*)aria-describedby="([^"]+)"/.exec(html);
    expect(input).not.toBeNull();
    expect(input![2]).not.toContain("checked");
    expect(html).toMatch(new RegExp(`<label for="${input![1]}"[^>]*>One file per chapter \\(ZIP\\)</label>`));
    expect(html).toMatch(new RegExp(`<p id="${input![3]}"[^>]*>This video has 3 chapters: each becomes its own MP4, WEBM, MP3, M4A or AAC file, all in one ZIP.</p>`));
    expect(render(<ChaptersSwitch count={1} on onChange={() => {}} />)).toContain("This video has 1 chapter:");
  });

  it("sits on the video and audio tabs of a video with chapters, for every plan, and nowhere else", () => {
    expect(split([option("mp4-720", "video")], ["video"])).toContain('data-testid="chapters-switch"');
    expect(split([option("m4a", "audio")], ["audio"])).toContain('data-testid="chapters-switch"');
    expect(split([option("thumbnail-hd", "image")], ["other"])).not.toContain('data-testid="chapters-switch"');
    expect(split([option("mp4-720", "video")], ["video"], [])).not.toContain('data-testid="chapters-switch"');
    expect(render(<FormatPicker formats={[option("mp4-720", "video")]} sourceUrl="https://youtu.be/vidfetchAll" tabs={["video"]} />)).not.toContain('data-testid="chapters-switch"');
  });
});
