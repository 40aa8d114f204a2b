import { describe, expect, it } from "vitest";
import { checkLinkOnSubmit, checkLinkWhileTyping } from "./link-validation.ts";

describe("the link field (spec §5)", () => {
  it("says nothing about an empty field while typing, but asks for a link on submit", () => {
    expect(checkLinkWhileTyping("")).toEqual({ message: null, canSubmit: true, platform: null });
    expect(checkLinkOnSubmit("  ")).toEqual({ ok: false, message: "Please enter a YouTube URL" });
  });

  it("flags a non-empty invalid value and disables Download", () => {
    // the spec's wording where the link is a YouTube one
    expect(checkLinkWhileTyping("youtube.com/watch?v=short")).toEqual({ message: "Please enter a valid YouTube URL", canSubmit: false, platform: null });
    // elsewhere the form accepts more than YouTube, and says so
    for (const bad of ["hello", "ftp://youtube.com/watch?v=vidfetchAll", "youtub.com/watch?v=vidfetchAll"]) {
      expect(checkLinkWhileTyping(bad)).toEqual({ message: "Please enter a valid video link", canSubmit: false, platform: null });
    }
    expect(checkLinkWhileTyping("https://www.facebook.com/SomePage")).toEqual({ message: "Please enter a valid Facebook video link", canSubmit: false, platform: null });
    expect(checkLinkOnSubmit("https://www.instagram.com/someone/")).toEqual({ ok: false, message: "Please enter a valid Instagram video link" });
  });

  it("accepts Facebook and Instagram video links and names their platform", () => {
    expect(checkLinkWhileTyping("https://www.facebook.com/watch/?v=1234567890")).toEqual({ message: null, canSubmit: true, platform: "Facebook" });
    expect(checkLinkWhileTyping("instagram.com/reel/C1a2B3c4D5e/")).toEqual({ message: null, canSubmit: true, platform: "Instagram" });
    expect(checkLinkOnSubmit(" https://fb.watch/aBc-12XyZ/ ")).toEqual({ ok: true, url: "https://fb.watch/aBc-12XyZ/" });
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
      expect(checkLinkWhileTyping(good)).toEqual({ message: null, canSubmit: true, platform: null });
      expect(checkLinkOnSubmit(`  ${good} `)).toEqual({ ok: true, url: good });
    }
  });

  it("names a YouTube link without a usable id on submit", () => {
    expect(checkLinkOnSubmit("https://www.youtube.com/watch?v=abc")).toEqual({ ok: false, message: "Could not extract video ID from URL" });
  });
});

describe("playlist links (issue 30 §3)", () => {
  it("accepts a YouTube playlist page, a watch link inside a playlist and another platform's playlist", () => {
    for (const good of [
      "https://www.youtube.com/playlist?list=PLvidfetchSamples01",
      "youtube.com/playlist?list=PLvidfetchSamples01",
      "https://www.youtube.com/watch?v=vidfetchAll&list=PLvidfetchSamples01",
    ]) {
      expect(checkLinkWhileTyping(good)).toEqual({ message: null, canSubmit: true, platform: null });
      expect(checkLinkOnSubmit(` ${good} `)).toEqual({ ok: true, url: good });
    }
    expect(checkLinkWhileTyping("https://vimeo.com/showcase/1234567")).toEqual({ message: null, canSubmit: true, platform: "Vimeo" });
    expect(checkLinkOnSubmit("https://www.dailymotion.com/playlist/x6hynp")).toEqual({ ok: true, url: "https://www.dailymotion.com/playlist/x6hynp" });
  });

  it("still refuses lists that are no playlist and a playlist page without a list", () => {
    expect(checkLinkWhileTyping("https://www.youtube.com/playlist?list=RDvidfetchAll0").canSubmit).toBe(false);
    expect(checkLinkOnSubmit("https://www.youtube.com/playlist")).toEqual({ ok: false, message: "Could not extract video ID from URL" });
  });
});
