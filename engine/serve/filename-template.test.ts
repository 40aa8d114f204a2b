import { describe, expect, it } from "vitest";
import type { ResolvedMedia } from "../types.ts";
import { renderFilename, templateProblem } from "./filename-template.ts";

const media = {
  platform: "youtube",
  details: { title: 'A/B: "quotes" <and> more', channelTitle: "Chan\u202Enel", id: "abc123DEF45", publishedAt: "Jun 3, 2026" },
} as unknown as ResolvedMedia;

describe("file-name templates", () => {
  it("fill every field, each made safe, and keep the format's extension", () => {
    expect(renderFilename("{channel} - {title} [{id}] {date} {format} {platform}", media, "mp4-720", "A (720p).mp4")).toBe("Channel - AB quotes and more [abc123DEF45] 2026-06-03 mp4-720 youtube.mp4");
    expect(renderFilename("{title}", media, "srt", "x.de.srt", "de")).toBe("AB quotes and more.de.srt");
  });

  it("keep a clip's span before the extension, as the format's own name has it", () => {
    const clipped = { ...media, details: { ...media.details, durationSeconds: 600 } } as ResolvedMedia;
    expect(renderFilename("{channel} - {title}", clipped, "mp4-720", "A (720p) [1.00-2.00].mp4", undefined, { tags: true, start: 60, end: 120 })).toBe("Channel - AB quotes and more [1.00-2.00].mp4");
    // nothing usable left: the format's own name, span and all, once
    expect(renderFilename(" / ", clipped, "mp4-720", "A (720p) [1.00-2.00].mp4", undefined, { tags: true, start: 60, end: 120 })).toBe("A (720p) [1.00-2.00].mp4");
  });

  it("cap the name and fall back to the format's name when nothing usable is left", () => {
    const long = renderFilename(`${"x".repeat(300)}{id}`, media, "mp3-128", "t.mp3");
    expect([...long.replace(/\.mp3$/, "")].length).toBeLessThanOrEqual(120);
    expect(renderFilename(" / : * ", media, "mp3-128", "A (128 kbps).mp3")).toBe("A (128 kbps).mp3");
  });

  it("name an unknown field and refuse an empty or overlong template", () => {
    expect(templateProblem("{title} {uploader}")).toMatch(/^\{uploader\} is not a field\./);
    expect(templateProblem("")).not.toBeNull();
    expect(templateProblem("x".repeat(201))).not.toBeNull();
    expect(templateProblem("{channel} - {title}")).toBeNull();
  });
});
