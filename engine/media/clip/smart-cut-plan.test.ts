import { describe, expect, it } from "vitest";
import type { MediaPlan, UpstreamStream } from "../../types.ts";
import { muxPlanAfterSmartCut, smartCutVideoIndex } from "./smart-cut-plan.ts";

type Remux = Extract<MediaPlan, { op: "remux" }>;
const stream = (p: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind">): UpstreamStream => ({ url: "https://cdn.test/x", transport: { type: "direct" }, container: "webm", contentLength: 1000, ...p });
const vp9 = stream({ id: "243", kind: "video", vcodec: "vp9" });
const youtubeVp9 = stream({ id: "248", kind: "video", vcodec: "vp09.00.40.08" });
const opus = stream({ id: "251", kind: "audio", acodec: "opus" });
const muxedWebm = stream({ id: "w", kind: "progressive", vcodec: "vp9", acodec: "opus" });
const h264 = stream({ id: "134", kind: "video", container: "mp4", vcodec: "avc1.4d401e" });
const clip = { start: 61.5, end: 70.75, seeks: [61.5, 61.5], duration: 9.25, exact: true };
const plan = (inputs: UpstreamStream[], container: Remux["container"], more: Partial<Remux> = {}): Remux =>
  ({ op: "remux", inputs, container, mimeType: `video/${container}`, extension: container, bytes: null, clip, ...more });

describe("which exact clips are cut smart", () => {
  it("VP9 video apart from its audio into WEBM, as H.264 into MP4", () => {
    expect(smartCutVideoIndex(plan([vp9, opus], "webm"))).toBe(0);
    expect(smartCutVideoIndex(plan([opus, youtubeVp9], "webm"))).toBe(1);
    expect(smartCutVideoIndex(plan([h264, opus], "mp4"))).toBe(0);
  });

  it("not a WEBM with its audio muxed in, VP9 into MP4, H.264 into WEBM, a keyframe clip or a scaled one", () => {
    expect(smartCutVideoIndex(plan([muxedWebm], "webm"))).toBeNull();
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
});
