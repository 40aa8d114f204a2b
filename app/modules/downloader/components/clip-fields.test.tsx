import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { FormatOption } from "#engine/types.ts";
import { ClipFields } from "./clip-fields.tsx";
import { FormatPicker } from "./format-picker.tsx";
import { publishPlayerClock } from "../player-clock.ts";

function render(node: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element: node }]);
  return renderToStaticMarkup(<RouterProvider router={router} />);
}

const option = (id: string, icon: FormatOption["icon"]): FormatOption => ({ id, label: id, icon, quality: "q", format: "F", size: "60 MB", available: true, premium: false, bytes: 60_000_000 }) as FormatOption;

describe("the clip fields", () => {
  it("label each field, point it at its hint, and keep an announced place for a mistake", () => {
    const html = render(<ClipFields value={{ start: "", end: "", exact: false }} onChange={() => {}} error={null} />);
    for (const name of ["start", "end"]) {
      const input = new RegExp(`<input id="([^"]+)-${name}"[^>]*aria-describedby="([^"]+)"`).exec(html);
      expect(input).not.toBeNull();
      expect(html).toContain(`<label for="${input![1]}-${name}"`);
      expect(input![2]).toBe(`${input![1]}-hint`);
    }
    expect(html).toMatch(/<p id="[^"]+-error" role="alert"/);
    expect(html).toContain("Cut at the exact second");
  });

  it("mark the field in error and describe it by the message", () => {
    const html = render(<ClipFields value={{ start: "", end: "x", exact: false }} onChange={() => {}} error={{ field: "end", message: "Type the end as a time, like 1:02:03 or 90." }} />);
    expect(html).toMatch(/-end"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]+-hint [^"]+-error"/);
    expect(html).not.toMatch(/-start"[^>]*aria-invalid="true"/);
    expect(html).toContain("Type the end as a time, like 1:02:03 or 90.");
  });

  it("offer a timeline of the video's length when it is known, its values read as times", () => {
    const html = render(<ClipFields value={{ start: "1:02:03", end: "", exact: false }} onChange={() => {}} error={null} durationSeconds={4000.4} />);
    expect(html).toMatch(/<label for="([^"]+)-start-timeline"[^>]*>Start on timeline<\/label><input id="\1-start-timeline" type="range" min="0" max="4000" step="1"[^>]*aria-valuetext="1:02:03"/);
    // an empty end stands at the video's end
    expect(html).toMatch(/-end-timeline" type="range"[^>]*aria-valuetext="1:06:40"[^>]*value="4000"|-end-timeline" type="range"[^>]*value="4000"[^>]*aria-valuetext="1:06:40"/);
    expect(render(<ClipFields value={{ start: "", end: "", exact: false }} onChange={() => {}} error={null} />)).not.toContain('type="range"');
  });

  it("offer Start here and End here, described by how, only while the player can tell its time", () => {
    const value = { start: "", end: "", exact: false };
    expect(render(<ClipFields value={value} onChange={() => {}} error={null} durationSeconds={600} />)).not.toContain("here</button>");
    const unpublish = publishPlayerClock({ now: () => 12 });
    try {
      const html = render(<ClipFields value={value} onChange={() => {}} error={null} durationSeconds={600} />);
      const hint = /<p id="([^"]+-player-hint)"[^>]*>Or pause the player above where the clip should start or end, and press Start here or End here\.<\/p>/.exec(html);
      expect(hint).not.toBeNull();
      for (const label of ["Start", "End"]) expect(html).toMatch(new RegExp(`<button [^>]*aria-describedby="${hint![1]}"[^>]*>${label} here</button>`));
    } finally {
      unpublish();
    }
  });

  it("sit above the video and audio formats, not the thumbnail and text ones", () => {
    expect(render(<FormatPicker formats={[option("mp4-720", "video")]} sourceUrl="https://youtu.be/vidfetchAll" durationSeconds={600} />)).toContain('data-testid="clip-fields"');
    expect(render(<FormatPicker formats={[option("mp3-128", "audio")]} sourceUrl="https://youtu.be/vidfetchAll" tabs={["audio"]} />)).toContain('data-testid="clip-fields"');
    expect(render(<FormatPicker formats={[option("thumbnail-hd", "image")]} sourceUrl="https://youtu.be/vidfetchAll" tabs={["other"]} />)).not.toContain('data-testid="clip-fields"');
  });
});
