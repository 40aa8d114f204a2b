/**
 * An exact clip of VP9 or AV1 video that re-encodes only its first and last group of pictures and
 * copies the rest (docs/decisions/072, VP9 and AV1 addenda): the H.264 smart cut's walk
 * (smart-cut-gops.ts) over frames copied as IVF. A VP9 keyframe refers to nothing before it and
 * carries everything a decoder needs (no parameter sets, nothing in WebM's CodecPrivate), so any
 * keyframe is a join point; the head and tail are encoded with libvpx in the source's profile 0 and
 * size. An AV1 key frame (shown, frame_type KEY_FRAME) resets every reference and comes with its
 * sequence header, so it is a join point too, whatever sequence header our SVT-AV1 edges carry. The
 * parts are written as one IVF stream under the copy's header, the encoders' times moved onto its
 * time base.
 *
 * A source of another profile (VP9 10-bit or 4:4:4; AV1 other than 8-bit 4:2:0 Main) is re-encoded
 * whole, from the same copy.
 */
import { Readable } from "node:stream";
import { EngineError } from "../../errors.ts";
import { av1CutEncoderArgs, runFfmpeg, SMART_CUT_ORIGIN_SECONDS, vp9CutEncoderArgs } from "../ffmpeg.ts";
import { Av1KeyFrames, parseSequenceHeader, sequenceHeaderOf } from "./av1.ts";
import { ivfFrame, IvfReader, vp9FrameInfo, type IvfFrame, type IvfHeader } from "./ivf.ts";
import { CutOutput, frameStepOf, HELD_GOP_BYTES, openingOf, readGop, walkGops, type FrameSource } from "./smart-cut-gops.ts";
import type { SmartCut, SmartCutOptions } from "./smart-cut.ts";

/** Why a first frame's pictures cannot be matched by the edges' encoder (null: they can). */
function unmatched(codec: "vp9" | "av1", frame: Buffer): string | null {
  if (codec === "vp9") {
    const profile = vp9FrameInfo(frame)?.profile;
    return profile === 0 ? null : `VP9 profile ${profile}`;
  }
  const header = sequenceHeaderOf(frame);
  const sequence = header ? parseSequenceHeader(header.payload) : null;
  if (!sequence) return "an AV1 key frame without its sequence header";
  return sequence.profile === 0 && sequence.bitDepth === 8 && !sequence.monochrome ? null : `AV1 profile ${sequence.profile}, ${sequence.bitDepth}-bit`;
}

export function openIvfSmartCut(opts: SmartCutOptions, codec: "vp9" | "av1"): SmartCut {
  const cut = new CutOutput(opts.reader, opts.signal);
  const { summary } = cut;
  const av1Keys = new Av1KeyFrames();
  const copy = codec === "av1" ? new IvfReader((f) => av1Keys.isKey(f)) : new IvfReader();
  const frames = framesOf(opts.reader.output, copy)[Symbol.asyncIterator]();
  const source: FrameSource<IvfFrame> = {
    next: async () => {
      const r = await frames.next();
      return r.done ? null : r.value;
    },
    key: (f) => f.key,
    pts: (f) => f.pts,
    bytes: (f) => f.bytes,
  };

  /** Re-encodes `gop` (then, `streaming`, the copy's frames still to come) from `from` to before `to` (the copy's clock), its frames written on that clock. */
  async function encode(header: IvfHeader, gop: IvfFrame[], from: number, to: number, matched: boolean, streaming = false): Promise<void> {
    // a range with no frame gives no picture (and SVT-AV1 would wait for one for ever)
    if (!streaming && !gop.some((f) => f.pts >= from && f.pts < to)) return;
    summary.encodedParts++;
    const { num, den } = header.timeBase;
    const input = Readable.from(ivfOf(header, gop, streaming ? source : null), { objectMode: false });
    await opts.turn();
    const range = { from: (from * num) / den, to: (to * num) / den };
    const args = codec === "av1" ? av1CutEncoderArgs(range, header.timeBase, matched) : vp9CutEncoderArgs(range, header.timeBase, matched);
    const encoder = runFfmpeg(opts.media, args, [input], { killGraceMs: opts.killGraceMs, warm: null });
    cut.encoders.add(encoder);
    const encoded = new IvfReader();
    for await (const chunk of encoder.output) {
      for (const f of encoded.push(chunk as Buffer)) {
        const own = encoded.header!.timeBase;
        await cut.write(ivfFrame(Math.round((f.pts * own.num * den) / (own.den * num)), f.data));
      }
    }
    cut.encoders.delete(encoder);
  }

  async function run(): Promise<void> {
    // the first GOP: from the keyframe at or before the start to the next keyframe
    const first: IvfFrame[] = [];
    const { boundary, held } = await readGop(source, first);
    const header = copy.header;
    if (first.length === 0 || !header) throw new EngineError("download.failed", { detail: "the clip's copy held no video" });
    const { num, den } = header.timeBase;
    const origin = Math.round((SMART_CUT_ORIGIN_SECONDS * den) / num);
    const end = origin + Math.round((opts.duration * den) / num);
    const frame = frameStepOf(first.map((f) => f.pts), den / num / 30);
    const at = { origin, end, frame };
    const { startsOnKey, firstPts, inOneGop } = openingOf(source, first, boundary, at);
    cut.startsAfter(Number.isFinite(firstPts) ? Math.max(0, ((firstPts - origin) * num) / den) : 0);
    await cut.write(header.bytes);
    const mismatch = unmatched(codec, first[0]!.data);
    // nothing to copy: the whole clip lies in its first GOP, a GOP too long to hold, or a profile the edges would not match
    if (mismatch || !first[0]!.key || inOneGop || held > HELD_GOP_BYTES) {
      summary.mode = "whole";
      summary.reason = mismatch ?? (!first[0]!.key ? "no keyframe first" : held > HELD_GOP_BYTES ? "a GOP too long to hold" : "the clip lies in one GOP");
      // VP9: libvpx takes the decoded pictures' profile; AV1: 8-bit Main when the source is, else 10-bit
      await encode(header, boundary ? [...first, boundary] : first, origin, end, codec === "av1" && mismatch === null, true);
      return;
    }
    await walkGops(source, { gop: first, boundary, startsOnKey }, at, {
      copy: async (gop) => {
        summary.copiedFrames += gop.length;
        for (const f of gop) await cut.write(ivfFrame(f.pts, f.data));
      },
      encode: (gop, from, to, streaming) => encode(header, gop, from, to, true, streaming),
    });
  }

  cut.finish(run(), () => undefined);
  return { video: cut.out, parameterSets: Promise.resolve(null), firstFrame: cut.firstFrame, summary: () => ({ ...summary }), shutdown: cut.shutdown };
}

/** The frames of an IVF stream, as they complete (its header in `reader`). */
async function* framesOf(ivf: Readable, reader: IvfReader): AsyncGenerator<IvfFrame> {
  for await (const chunk of ivf) yield* reader.push(chunk as Buffer);
  if (reader.leftover > 0) throw new EngineError("download.failed", { detail: "the clip's copy ended mid-frame" });
}

/** An IVF stream of `frames`, then of the frames still to come from `rest`. */
async function* ivfOf(header: IvfHeader, frames: readonly IvfFrame[], rest: FrameSource<IvfFrame> | null): AsyncGenerator<Buffer> {
  yield header.bytes;
  for (const f of frames) yield ivfFrame(f.pts, f.data);
  if (!rest) return;
  for (let f = await rest.next(); f; f = await rest.next()) yield ivfFrame(f.pts, f.data);
}
