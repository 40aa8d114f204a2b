import { describe, expect, it } from "vitest";
import { containerOf, parseMimeType } from "./codecs.ts";
import { expiryOf, hasDirectUrl, toUpstreamStream, type InnertubeFormat } from "./streams.ts";

const base: InnertubeFormat = {
  itag: 137,
  url: "https://rr1---sn-x.googlevideo.com/videoplayback?expire=1780889123&itag=137",
  mime_type: 'video/mp4; codecs="avc1.640028"',
  width: 1920,
  height: 1080,
  fps: 24,
  bitrate: 1_500_751,
  average_bitrate: 527_948,
  content_length: 47_560_151,
  has_audio: false,
  has_video: true,
};

describe("parseMimeType", () => {
  it.each([
    ['video/mp4; codecs="avc1.640028"', "h264", undefined],
    ['video/webm; codecs="vp9"', "vp9", undefined],
    ['video/webm; codecs="vp09.00.51.08"', "vp9", undefined],
    ['video/mp4; codecs="av01.0.08M.08"', "av1", undefined],
    ['audio/mp4; codecs="mp4a.40.2"', undefined, "aac"],
    ['audio/mp4; codecs="mp4a.40.5"', undefined, "aac"],
    ['audio/webm; codecs="opus"', undefined, "opus"],
    ['video/mp4; codecs="avc1.42001E, mp4a.40.2"', "h264", "aac"],
  ])("%s", (mime, vcodec, acodec) => {
    const parsed = parseMimeType(mime);
    expect(parsed.vcodec).toBe(vcodec);
    expect(parsed.acodec).toBe(acodec);
  });
  it("maps containers", () => {
    expect(containerOf('audio/mp4; codecs="mp4a.40.2"')).toBe("m4a");
    expect(containerOf("video/webm")).toBe("webm");
    expect(containerOf("video/3gpp")).toBe("unknown");
  });
});

describe("toUpstreamStream", () => {
  it("keeps a direct video format with its numbers", () => {
    expect(toUpstreamStream(base)).toEqual({
      id: "137",
      kind: "video",
      url: base.url,
      transport: { type: "direct", maxRequestBytes: 10 * 1024 * 1024 },
      container: "mp4",
      mimeType: base.mime_type,
      vcodec: "h264",
      width: 1920,
      height: 1080,
      fps: 24,
      bitrate: 527_948,
      contentLength: 47_560_151,
    });
  });
  it("classifies progressive and audio", () => {
    const prog = toUpstreamStream({ ...base, itag: 18, mime_type: 'video/mp4; codecs="avc1.42001E, mp4a.40.2"', has_audio: true, audio_sample_rate: 44100 });
    expect(prog).toMatchObject({ kind: "progressive", vcodec: "h264", acodec: "aac", audioSampleRate: 44100 });
    const audio = toUpstreamStream({ ...base, itag: 251, mime_type: 'audio/webm; codecs="opus"', has_audio: true, has_video: false, width: undefined, height: undefined });
    expect(audio).toMatchObject({ kind: "audio", container: "webm", acodec: "opus" });
    expect(audio).not.toHaveProperty("height");
  });
  it("drops what cannot be fetched as plain bytes", () => {
    expect(toUpstreamStream({ ...base, url: undefined })).toBeNull(); // SABR-only
    expect(toUpstreamStream({ ...base, url: undefined, signature_cipher: "s=abc&url=x" })).toBeNull();
    expect(toUpstreamStream({ ...base, drm_families: ["WIDEVINE"] })).toBeNull();
    expect(toUpstreamStream({ ...base, is_type_otf: true })).toBeNull();
    expect(toUpstreamStream({ ...base, is_drc: true })).toBeNull();
    expect(toUpstreamStream({ ...base, mime_type: 'video/3gpp; codecs="mp4v.20.3"' })).toBeNull();
  });
  it("keeps every audio track of a dubbed video, the original under its itag (docs/decisions/067)", () => {
    const audio = { ...base, itag: 140, mime_type: 'audio/mp4; codecs="mp4a.40.2"', has_audio: true, has_video: false, width: undefined, height: undefined };
    const original = toUpstreamStream({ ...audio, audio_track: { audio_is_default: true, display_name: "English (US) original", id: "en-US.4" } });
    expect(original).toMatchObject({ id: "140", kind: "audio", language: "en-US", audioName: "English (US) original" });
    expect(original).not.toHaveProperty("audioDefault");
    const dub = toUpstreamStream({ ...audio, audio_track: { audio_is_default: false, display_name: "German", id: "de.3" } });
    expect(dub).toMatchObject({ id: "140.de.3", language: "de", audioDefault: false, audioName: "German" });
    const described = toUpstreamStream({ ...audio, language: "en", is_descriptive: true, audio_track: { audio_is_default: false, display_name: "English descriptive", id: "en.2" } });
    expect(described).toMatchObject({ id: "140.en.2", language: "en-desc", audioDefault: false });
  });
  it("tells direct URLs from ciphered ones", () => {
    expect(hasDirectUrl(base)).toBe(true);
    expect(hasDirectUrl({ ...base, url: "" })).toBe(false);
  });
});

describe("expiryOf", () => {
  it("takes the earliest expire= in ms", () => {
    const s = toUpstreamStream(base)!;
    const t = { ...s, url: "https://x.googlevideo.com/videoplayback?expire=1780880000" };
    expect(expiryOf([s, t])).toBe(1_780_880_000_000);
    expect(expiryOf([{ ...s, url: "https://x/none" }])).toBeUndefined();
  });
});
