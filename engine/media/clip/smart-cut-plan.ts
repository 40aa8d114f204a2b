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
const isVp9 = (codec: string | undefined) => codec !== undefined && /^(vp09|vp9)/i.test(codec);
/** AV1; YouTube's `av01.P.LLT.DD` names its profile first (a sequence header of another profile or depth is re-encoded whole anyway) */
export const isAv1 = (codec: string | undefined) => codec !== undefined && /^(av01|av1)/i.test(codec);
/** The codec a smart cut copies and re-encodes: H.264 as MPEG-TS, VP9 and AV1 as IVF. */
export const smartCutCodec = (codec: string | undefined): "h264" | "vp9" | "av1" => (isVp9(codec) ? "vp9" : isAv1(codec) ? "av1" : "h264");

/**
 * A muxed VP9 or AV1 source's audio is copied beside the cut when the output holds it as it is: Opus or Vorbis into WEBM, AAC
 * or MP3 into MP4 (named; a source of unknown audio is re-encoded whole)
 */
const copiesInto = (container: "mp4" | "webm", codec: string | undefined) => codec !== undefined && (container === "webm" ? /^(opus|vorbis)$/i : /^(aac|mp3)$/i).test(codec);

/**
 * The index of the plan's video input when its exact clip can copy all but its first and last GOP:
 * H.264 into MP4, VP9 into WEBM, or AV1 into either (VP9 and AV1 as their own stream, or muxed with
 * audio the output copies); the picture neither scaled, cut inside (SponsorBlock) nor drawn on
 * (subtitles burned in). A muxed H.264 input's audio comes through the cut; a muxed VP9 or AV1
 * input's through a pipe of its own (the IVF the video is copied as carries nothing else).
 */
export function smartCutVideoIndex(plan: MediaPlan): number | null {
  if (plan.op !== "remux" || !plan.clip?.exact || (plan.container !== "mp4" && plan.container !== "webm")) return null;
  if (plan.transcodeVideo || (plan.cuts?.length ?? 0) > 0 || plan.subtitles?.mode === "burn") return null;
  const video = plan.inputs.findIndex((s) => s.kind === "video");
  const index = video >= 0 ? video : plan.inputs.findIndex((s) => s.kind === "progressive");
  const stream = plan.inputs[index];
  if (!stream) return null;
  if (isH264(stream.vcodec)) return plan.container === "mp4" ? index : null;
  // VP9 into WEBM; AV1 (YouTube's DASH above 1080p, a generic file) into either: their video alone, or with audio the output copies
  const muxedOnly = stream.kind === "progressive" && copiesInto(plan.container, stream.acodec) && !plan.inputs.some((s) => s.kind === "audio");
  const codecFits = isAv1(stream.vcodec) || (isVp9(stream.vcodec) && plan.container === "webm");
  return codecFits && (stream.kind === "video" || muxedOnly) ? index : null;
}

/**
 * The plan that muxes the smart cut: its video from a pipe of MPEG-TS or IVF (no seek: it starts
 * at the clip's first frame, `firstFrame` seconds after its start), copied. A muxed VP9 or AV1
 * source's audio comes on a pipe of its own, the last input, copied too (`audioIndex`).
 */
export function muxPlanAfterSmartCut(plan: Remux, videoIndex: number, firstFrame: number): { plan: Remux; cutIndex: number; audioIndex?: number } {
  const source = plan.inputs[videoIndex]!;
  const ivf = smartCutCodec(source.vcodec) !== "h264";
  // a muxed VP9's or AV1's audio comes on a pipe of its own
  const audioOnPipe = ivf && source.kind === "progressive";
  const cut: UpstreamStream = { ...source, id: `${source.id}:cut`, container: ivf ? "unknown" : "ts", contentLength: null, ...(audioOnPipe ? { kind: "video" as const } : {}) };
  const clip = plan.clip!;
  // the copy's audio (as Matroska), from its first packet at or after the clip's start (within one audio frame of it), copied again
  const audioInput: UpstreamStream[] = audioOnPipe ? [{ ...source, id: `${source.id}:audio`, kind: "audio", container: "webm", vcodec: undefined, contentLength: null }] : [];
  const inputs = [...plan.inputs.map((s, i) => (i === videoIndex ? cut : s)), ...audioInput];
  const seeks = [...clip.seeks.map((s, i) => (i === videoIndex ? 0 : s)), ...audioInput.map(() => 0)];
  const offsets = seeks.map((_, i) => (i === videoIndex ? firstFrame : 0));
  if (audioOnPipe) return { plan: { ...plan, inputs, clip: { ...clip, seeks, offsets, exact: false } }, cutIndex: videoIndex, audioIndex: inputs.length - 1 };
  // a muxed source's audio comes in the cut, its packets copied from its first frame on; an audio
  // stream of its own is decoded from its seek and encoded, cut at the clip's start as before (a
  // copy would start at the packet where the video's keyframe before the start was)
  const muxed = source.kind === "progressive";
  const audio = plan.container === "webm" ? ("opus" as const) : ("aac" as const);
  return { plan: { ...plan, inputs, clip: { ...clip, seeks, offsets, exact: false }, ...(muxed ? {} : { transcodeAudio: audio }) }, cutIndex: videoIndex };
}

/**
 * A muxed VP9 or AV1 source's audio, copied beside its video, is held in memory up to this while the mux
 * does not read it yet (the head is still encoding): then the copy waits. A GOP's audio is a few kilobytes a second.
 */
export const CUT_AUDIO_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * The muxing ffmpeg's inputs: the smart cut's video on its pipe at `cutIndex`, the others as `rest`
 * opened them, in order; and a muxed VP9 or AV1 source's `audio` pipe last (muxPlanAfterSmartCut's `audioIndex`).
 */
export function joinCutInputs(cutIndex: number, video: Readable, rest: ClipInputs, audio?: Readable): ClipInputs {
  const at = <T>(list: T[], value: T) => [...list.slice(0, cutIndex), value, ...list.slice(cutIndex)];
  const pipesBefore = rest.urls.slice(0, cutIndex).filter((u) => u === null).length;
  return {
    urls: [...at(rest.urls, null), ...(audio ? [null] : [])],
    pipes: [...rest.pipes.slice(0, pipesBefore), video, ...rest.pipes.slice(pipesBefore), ...(audio ? [audio] : [])],
    loopbacks: rest.loopbacks,
    leads: [...at(rest.leads, 0), ...(audio ? [0] : [])],
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
