/**
 * Which exact clips are cut smart (docs/decisions/072), and the muxing plan that takes the smart
 * cut's video in place of the source's.
 */
import type { Readable } from "node:stream";
import type { MediaPlan, UpstreamStream } from "../../types.ts";
import { prepend, readMp4Head } from "../tags/tag-stream.ts";
import { scanHead } from "../tags/mp4-tags.ts";
import { withParameterSets } from "./avcc.ts";
import type { ClipInputs } from "./clip-inputs.ts";

type Remux = Extract<MediaPlan, { op: "remux" }>;

const isH264 = (codec: string | undefined) => codec !== undefined && /^(avc[13]|h264)/i.test(codec);
/** VP9; YouTube's `vp09.PP.LL.DD` names profile 0 and 8 bits as `vp09.00.…08` (another profile is re-encoded whole anyway) */
export const isVp9 = (codec: string | undefined) => codec !== undefined && /^(vp09|vp9)/i.test(codec);

/**
 * The index of the plan's video input when its exact clip can copy all but its first and last GOP:
 * H.264 into MP4, or VP9 video of its own (no muxed audio: the IVF it is copied as carries nothing
 * else) into WEBM; the picture neither scaled, cut inside (SponsorBlock) nor drawn on (subtitles
 * burned in). A muxed H.264 input's audio comes through the cut.
 */
export function smartCutVideoIndex(plan: MediaPlan): number | null {
  if (plan.op !== "remux" || !plan.clip?.exact || (plan.container !== "mp4" && plan.container !== "webm")) return null;
  if (plan.transcodeVideo || (plan.cuts?.length ?? 0) > 0 || plan.subtitles?.mode === "burn") return null;
  const video = plan.inputs.findIndex((s) => s.kind === "video");
  const index = video >= 0 ? video : plan.inputs.findIndex((s) => s.kind === "progressive");
  const stream = plan.inputs[index];
  if (!stream) return null;
  if (plan.container === "mp4") return isH264(stream.vcodec) ? index : null;
  return isVp9(stream.vcodec) && stream.kind === "video" ? index : null;
}

/**
 * The plan that muxes the smart cut: its video from a pipe of MPEG-TS or IVF (no seek: it starts
 * at the clip's first frame, `firstFrame` seconds after its start), copied.
 */
export function muxPlanAfterSmartCut(plan: Remux, videoIndex: number, firstFrame: number): { plan: Remux; cutIndex: number } {
  const source = plan.inputs[videoIndex]!;
  const cut: UpstreamStream = { ...source, id: `${source.id}:cut`, container: isVp9(source.vcodec) ? "unknown" : "ts", contentLength: null };
  const clip = plan.clip!;
  const inputs = plan.inputs.map((s, i) => (i === videoIndex ? cut : s));
  const seeks = clip.seeks.map((s, i) => (i === videoIndex ? 0 : s));
  const offsets = clip.seeks.map((_, i) => (i === videoIndex ? firstFrame : 0));
  // a muxed source's audio comes in the cut, its packets copied from its first frame on; an audio
  // stream of its own is decoded from its seek and encoded, cut at the clip's start as before (a
  // copy would start at the packet where the video's keyframe before the start was)
  const muxed = source.kind === "progressive";
  const audio = plan.container === "webm" ? ("opus" as const) : ("aac" as const);
  return { plan: { ...plan, inputs, clip: { ...clip, seeks, offsets, exact: false }, ...(muxed ? {} : { transcodeAudio: audio }) }, cutIndex: videoIndex };
}

/** The muxing ffmpeg's inputs: the smart cut's video on its pipe at `cutIndex`, the others as `rest` opened them, in order. */
export function joinCutInputs(cutIndex: number, video: Readable, rest: ClipInputs): ClipInputs {
  const at = <T>(list: T[], value: T) => [...list.slice(0, cutIndex), value, ...list.slice(cutIndex)];
  const pipesBefore = rest.urls.slice(0, cutIndex).filter((u) => u === null).length;
  return {
    urls: at(rest.urls, null),
    pipes: [...rest.pipes.slice(0, pipesBefore), video, ...rest.pipes.slice(pipesBefore)],
    loopbacks: rest.loopbacks,
    leads: at(rest.leads, 0),
  };
}

/** The muxed MP4 with the parameter sets of the re-encoded pictures listed in its avcC (none to add: as it is). */
export async function withCutParameterSets(mp4: Readable, sets: Promise<Buffer[] | null>, signal: AbortSignal): Promise<Readable> {
  const extra = await sets;
  if (!extra) return mp4;
  const head = await readMp4Head(mp4, signal);
  const scan = scanHead(head);
  const patched = scan.state === "moov" ? withParameterSets(head, scan.moov, extra) : null;
  return prepend(patched ?? head, mp4);
}
