import { describe, expect, it } from "vitest";
import { checkLinkOnSubmit, checkLinkWhileTyping } from "./link-validation.ts";

describe("the link field (spec §5)", () => {
  it("says nothing about an empty field while typing, but asks for a link on submit", () => {
    expect(checkLinkWhileTyping("")).toEqual({ message: null, canSubmit: true });
    expect(checkLinkOnSubmit("  ")).toEqual({ ok: false, message: "Please enter a YouTube URL" });
  });

  it("flags a non-empty invalid value and disables Download", () => {
    for (const bad of ["hello", "youtube.com/watch?v=short", "ftp://youtube.com/watch?v=vidfetchAll", "youtub.com/watch?v=vidfetchAll"]) {
      expect(checkLinkWhileTyping(bad)).toEqual({ message: "Please enter a valid YouTube URL", canSubmit: false });
    }
  });

  it("accepts every YouTube form and generic media links", () => {
    for (const good of [
      "https://www.youtube.com/watch?v=vidfetchAll",
      "youtu.be/vidfetch720",
      "https://www.youtube.com/shorts/vidfetchCap",
      "https://www.youtube-nocookie.com/embed/vidfetchAll",
      "https://m.youtube.com/watch?v=vidfetchAll&t=10",
      "https://media.example.test/hls/master.m3u8",
    ]) {
      expect(checkLinkWhileTyping(good)).toEqual({ message: null, canSubmit: true });
      expect(checkLinkOnSubmit(`  ${good} `)).toEqual({ ok: true, url: good });
    }
  });

  it("names a YouTube link without a usable id on submit", () => {
    expect(checkLinkOnSubmit("https://www.youtube.com/watch?v=abc")).toEqual({ ok: false, message: "Could not extract video ID from URL" });
  });
});
