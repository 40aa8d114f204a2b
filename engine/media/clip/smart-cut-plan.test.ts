import { describe, expect, it } from "vitest";
import type { MediaPlan, UpstreamStream } from "../../types.ts";
import { ffmpegArgsForPlan } from "../ffmpeg.ts";
import { muxPlanAfterSmartCut, smartCutVideoIndex } from "./smart-cut-plan.ts";

type Remux = Extract<MediaPlan, { op: "remux" }>;
const stream = (p: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind">): UpstreamStream => ({ url: "https://cdn.test/x", transport: { type: "direct" }, container: "webm", contentLength: 1000, ...p });
const vp9 = stream({ id: "243", kind: "video", vcodec: "vp9" });
const youtubeVp9 = stream({ id: "248", kind: "video", vcodec: "vp09.00.40.08" });
const opus = stream({ id: "251", kind: "audio", acodec: "opus" });
const muxedWebm = stream({ id: "w", kind: "progressive", vcodec: "vp9", acodec: "opus" });
const h264 = stream({ id: "134", kind: "video", container: "mp4", vcodec: "avc1.4d401e" });
const av1 = stream({ id: "401", kind: "video", container: "mp4", vcodec: "av1" });
const aac = stream({ id: "140", kind: "audio", container: "m4a", acodec: "aac" });
const clip = { start: 61.5, end: 70.75, seeks: [61.5, 61.5], duration: 9.25, exact: true };
const plan = (inputs: UpstreamStream[], container: Remux["container"], more: Partial<Remux> = {}): Remux =>
  ({ op: "remux", inputs, container, mimeType: `video/${container}`, extension: container, bytes: null, clip, ...more });

describe("which exact clips are cut smart", () => {
  it("VP9 video apart from its audio into WEBM, as H.264 into MP4", () => {
    expect(smartCutVideoIndex(plan([vp9, opus], "webm"))).toBe(0);
    expect(smartCutVideoIndex(plan([opus, youtubeVp9], "webm"))).toBe(1);
    expect(smartCutVideoIndex(plan([h264, opus], "mp4"))).toBe(0);
  });

  it("AV1 into MP4 and into WEBM: apart from its audio (YouTube's formats above 1080p), or muxed with audio the output copies", () => {
    expect(smartCutVideoIndex(plan([av1, aac], "mp4"))).toBe(0);
    expect(smartCutVideoIndex(plan([{ ...av1, vcodec: "av01.0.12M.08" }, opus], "webm"))).toBe(0);
    const muxedAv1 = { ...av1, kind: "progressive" as const, acodec: "aac" };
    expect(smartCutVideoIndex(plan([muxedAv1], "mp4"))).toBe(0);
    // AAC does not go into WEBM as it is, nor Opus into our MP4s
    expect(smartCutVideoIndex(plan([muxedAv1], "webm"))).toBeNull();
    expect(smartCutVideoIndex(plan([{ ...muxedAv1, acodec: "opus" }], "mp4"))).toBeNull();
    expect(smartCutVideoIndex(plan([av1, aac], "mp4", { subtitles: { mode: "burn" } as Remux["subtitles"] }))).toBeNull();
  });

  it("muxes AV1's cut from its IVF pipe, its audio encoded as AAC", () => {
    const { plan: mux, audioIndex } = muxPlanAfterSmartCut(plan([av1, aac], "mp4"), 0, 0);
    expect(mux.inputs[0]).toMatchObject({ id: "401:cut", container: "unknown", contentLength: null });
    expect([mux.transcodeAudio, audioIndex]).toEqual(["aac", undefined]);
  });

  it("a WEBM with Opus or Vorbis muxed in, not one of unknown audio or beside an audio stream of its own", () => {
    expect(smartCutVideoIndex(plan([muxedWebm], "webm"))).toBe(0);
    expect(smartCutVideoIndex(plan([{ ...muxedWebm, acodec: "vorbis" }], "webm"))).toBe(0);
    expect(smartCutVideoIndex(plan([{ ...muxedWebm, acodec: undefined }], "webm"))).toBeNull();
    expect(smartCutVideoIndex(plan([muxedWebm, opus], "webm"))).toBeNull();
  });

  it("not VP9 into MP4, H.264 into WEBM, a keyframe clip or a scaled one", () => {
    expect(smartCutVideoIndex(plan([vp9, opus], "mp4"))).toBeNull();
    expect(smartCutVideoIndex(plan([h264, opus], "webm"))).toBeNull();
    expect(smartCutVideoIndex(plan([vp9, opus], "webm", { clip: { ...clip, exact: false } }))).toBeNull();
    expect(smartCutVideoIndex(plan([vp9, opus], "webm", { transcodeVideo: "h264" }))).toBeNull();
  });

  it("muxes VP9's cut from its pipe, moved on to its first frame, its audio encoded as Opus", () => {
    const { plan: mux, cutIndex } = muxPlanAfterSmartCut(plan([vp9, opus], "webm"), 0, 0.25);
    expect(cutIndex).toBe(0);
    expect(mux.inputs[0]).toMatchObject({ id: "243:cut", container: "unknown", contentLength: null });
    expect(mux.clip).toMatchObject({ seeks: [0, 61.5], offsets: [0.25, 0], exact: false });
    expect(mux.transcodeAudio).toBe("opus");
  });

  it("muxes a muxed VP9's cut from its pipe and its audio from a pipe of its own after it, both copied", () => {
    const { plan: mux, cutIndex, audioIndex } = muxPlanAfterSmartCut(plan([muxedWebm], "webm", { clip: { ...clip, seeks: [61.5] } }), 0, 0.25);
    expect([cutIndex, audioIndex]).toEqual([0, 1]);
    expect(mux.inputs).toMatchObject([
      { id: "w:cut", kind: "video", container: "unknown", contentLength: null },
      { id: "w:audio", kind: "audio", container: "webm", vcodec: undefined, acodec: "opus", contentLength: null },
    ]);
    expect(mux.clip).toMatchObject({ seeks: [0, 0], offsets: [0.25, 0], exact: false });
    expect(mux.transcodeAudio).toBeUndefined();
    // the mux copies both: video from the first pipe, audio from the second
    const args = ffmpegArgsForPlan(mux);
    expect(args.join(" ")).toContain("-itsoffset 0.250000 -i pipe:3 -thread_queue_size 32 -i pipe:4 -map 0:v:0 -map 1:a:0 -c:v copy -c:a copy");
  });
});
