import { describe, expect, it } from "vitest";
import { ffmpegArgsForPlan } from "../ffmpeg.ts";
import { planFormat } from "../../formats.ts";
import type { MediaPlan, ResolvedMedia, UpstreamStream } from "../../types.ts";
import { optionsClaim, optionsFromClaim, parseMediaOptions } from "../options/media-options.ts";
import { listAudioTracks, withAudioLanguage } from "./audio-tracks.ts";

function stream(partial: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind">): UpstreamStream {
  return { url: `https://media.example/${partial.id}`, transport: { type: "direct" }, container: "mp4", ...partial };
}

/** A dubbed video as YouTube lists it: the original English, a German dub at a higher bitrate, English descriptive audio. */
function dubbed(streams: UpstreamStream[] = []): ResolvedMedia {
  return {
    platform: "youtube",
    sourceUrl: "https://www.youtube.com/watch?v=dubbedvideo",
    details: { id: "dubbedvideo", title: "Dubbed", durationSeconds: 60 } as ResolvedMedia["details"],
    streams: [
      stream({ id: "18", kind: "progressive", vcodec: "h264", acodec: "aac", width: 640, height: 360, contentLength: 3_000_000 }),
      stream({ id: "136", kind: "video", vcodec: "h264", width: 1280, height: 720, contentLength: 6_000_000 }),
      stream({ id: "248", kind: "video", container: "webm", vcodec: "vp9", width: 1920, height: 1080, contentLength: 9_000_000 }),
      stream({ id: "140", kind: "audio", container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: 960_000, language: "en", audioName: "English original" }),
      stream({ id: "140.de.3", kind: "audio", container: "m4a", acodec: "aac", bitrate: 160_000, contentLength: 1_200_000, language: "de", audioDefault: false, audioName: "German" }),
      stream({ id: "251.de.3", kind: "audio", container: "webm", acodec: "opus", bitrate: 150_000, contentLength: 1_100_000, language: "de", audioDefault: false }),
      stream({ id: "251", kind: "audio", container: "webm", acodec: "opus", bitrate: 140_000, contentLength: 1_000_000, language: "en" }),
      stream({ id: "140.en.2", kind: "audio", container: "m4a", acodec: "aac", bitrate: 128_000, contentLength: 960_000, language: "en-desc", audioDefault: false }),
      ...streams,
    ],
    thumbnails: [],
    captions: [],
  } as ResolvedMedia;
}

const BARE = { tags: false };
const inputIds = (plan: MediaPlan) => (plan.op === "remux" ? plan.inputs.map((s) => s.id) : plan.op === "transcode" || plan.op === "passthrough" ? [plan.input.id] : []);

describe("audio tracks (docs/decisions/067)", () => {
  it("lists one track per language, the original first and default, names from the platform or the language", () => {
    expect(listAudioTracks(dubbed())).toEqual([
      { language: "en", name: "English original", default: true },
      { language: "de", name: "German", default: false },
      { language: "en-desc", name: "English (descriptive audio)", default: false },
    ]);
  });
  it("lists nothing when the source names no language", () => {
    const media = dubbed();
    expect(listAudioTracks({ ...media, streams: media.streams.map((s) => ({ ...s, language: undefined, audioDefault: undefined })) })).toEqual([]);
  });
  it("keeps plans on the original track without a language, whatever a dub's bitrate", () => {
    expect(inputIds(planFormat(dubbed(), "mp4-720", BARE))).toEqual(["136", "140"]);
    expect(inputIds(planFormat(dubbed(), "webm", BARE))).toEqual(["248", "251"]);
    const mp3 = planFormat(dubbed(), "mp3-128", BARE);
    expect(mp3.op === "transcode" && mp3.input.language).toBe("en");
    expect(inputIds(planFormat(dubbed(), "m4a", BARE))).toEqual(["140"]);
    expect(planFormat(dubbed(), "mp4-720", BARE)).not.toHaveProperty("audioLanguage");
  });
  it("takes the language asked for in every audio format, and writes it on the track", () => {
    const de = { ...BARE, audioLanguage: "de" };
    const mp4 = planFormat(dubbed(), "mp4-720", de);
    expect(inputIds(mp4)).toEqual(["136", "140.de.3"]);
    expect(mp4).toMatchObject({ audioLanguage: "de" });
    expect(ffmpegArgsForPlan(mp4).join(" ")).toContain("-metadata:s:a:0 language=ger");
    expect(inputIds(planFormat(dubbed(), "webm", de))).toEqual(["248", "251.de.3"]);
    expect(inputIds(planFormat(dubbed(), "mp3-320", de))).toEqual(["140.de.3"]);
    expect(inputIds(planFormat(dubbed(), "aac-256", de))).toEqual(["140.de.3"]);
    expect(inputIds(planFormat(dubbed(), "m4a", { ...BARE, audioLanguage: "en-desc" }))).toEqual(["140.en.2"]);
    // the original asked by name is the default download
    expect(inputIds(planFormat(dubbed(), "mp4-720", { ...BARE, audioLanguage: "EN" }))).toEqual(["136", "140"]);
  });
  it("writes the language asked for into an MP3's ID3 tag as TLAN (ISO 639-2), counted in its size; nothing in a bare MP3 or for the original", () => {
    const tagged = planFormat(dubbed(), "mp3-128", { tags: true, audioLanguage: "de" });
    const original = planFormat(dubbed(), "mp3-128", { tags: true });
    expect(tagged.op === "transcode" && tagged.tags?.fields.language).toBe("ger");
    expect(original.op === "transcode" && original.tags?.fields).not.toHaveProperty("language");
    // a TLAN frame: its 10-byte header, the encoding byte and three letters (the tag is the same otherwise)
    expect(tagged.bytes! - original.bytes!).toBe(14);
    const desc = planFormat(dubbed(), "mp3-320", { tags: true, audioLanguage: "en-desc" });
    expect(desc.op === "transcode" && desc.tags?.fields.language).toBe("eng");
    const bare = planFormat(dubbed(), "mp3-128", { ...BARE, audioLanguage: "de" });
    expect(bare.op === "transcode" && bare.tags).toBeFalsy();
  });
  it("remuxes a progressive stream's picture with the language asked for, never its own (original) audio", () => {
    const own = dubbed().streams.filter((s) => s.kind !== "audio" || s.id === "140.de.3");
    const progressiveOnly = { ...dubbed(), streams: own };
    expect(planFormat(progressiveOnly, "mp4-360", BARE).op).toBe("passthrough");
    expect(() => planFormat(progressiveOnly, "mp4-360", { ...BARE, audioLanguage: "fr" })).toThrow(expect.objectContaining({ code: "audio.language_unavailable" }));
    const plan = planFormat(progressiveOnly, "mp4-360", { ...BARE, audioLanguage: "de" });
    expect(plan.op).toBe("remux");
    if (plan.op !== "remux") return;
    expect(plan.inputs.map((s) => [s.id, s.kind])).toEqual([["18", "video"], ["140.de.3", "audio"]]);
    const args = ffmpegArgsForPlan(plan);
    expect(args.join(" ")).toContain("-map 0:v:0 -map 1:a:0");
  });
  it("refuses a language the video does not have, never the default in its place", () => {
    expect(() => planFormat(dubbed(), "mp4-720", { ...BARE, audioLanguage: "fr" })).toThrow(expect.objectContaining({ code: "audio.language_unavailable" }));
    expect(() => withAudioLanguage({ ...dubbed(), streams: [] }, "en")).toThrow(expect.objectContaining({ code: "audio.language_unavailable" }));
  });
});

describe("audioLanguage as an option", () => {
  it("is parsed once and carried in a link's claim", () => {
    const options = parseMediaOptions({ audioLanguage: "en-desc" });
    expect(options.audioLanguage).toBe("en-desc");
    expect(optionsClaim(options)).toEqual({ a: "en-desc" });
    expect(optionsFromClaim(optionsClaim(options))).toEqual(options);
    expect(parseMediaOptions({ audioLanguage: "" })).not.toHaveProperty("audioLanguage");
    expect(() => parseMediaOptions({ audioLanguage: "de; rm -rf" })).toThrow(expect.objectContaining({ code: "request.invalid" }));
    expect(optionsFromClaim({ a: "not a language" })).toBeNull();
  });
});
