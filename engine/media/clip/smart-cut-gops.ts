/**
 * What every smart cut shares, whatever its codec (docs/decisions/072): the copy's frames read a
 * group of pictures (GOP, keyframe to keyframe) at a time; the first GOP re-encoded from the clip's
 * start to the next keyframe (the head), every GOP ending at or before the clip's end copied as it
 * came, the GOP holding the end re-encoded from its keyframe to the end (the tail); and the stream
 * the parts are written to. H.264 in MPEG-TS: smart-cut.ts; VP9 and AV1 in IVF: smart-cut-ivf.ts.
 */
import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { EngineError } from "../../errors.ts";
import type { FfmpegRun } from "../ffmpeg.ts";

/** A GOP held longer than this is re-encoded as it streams instead (the clip stays exact, memory stays bounded). */
export const HELD_GOP_BYTES = 48 * 1024 * 1024;

/** How a codec's frames are read: in order, each with its presentation time (on the copy's clock) and whether a join may fall before it. */
export interface FrameSource<F> {
  next(): Promise<F | null>;
  key(frame: F): boolean;
  pts(frame: F): number;
  bytes(frame: F): number;
}

export interface SmartCutSummary {
  mode: "smart" | "whole";
  /** frames copied as they came, and frames re-encoded */
  copiedFrames: number;
  encodedParts: number;
  reason?: string;
}

/** The frames after `gop`'s up to the next keyframe (`boundary`), pushed onto `gop`; it stops once more than HELD_GOP_BYTES are held. */
export async function readGop<F>(source: FrameSource<F>, gop: F[], held = 0): Promise<{ boundary: F | null; held: number }> {
  for (let f = await source.next(); f; f = await source.next()) {
    if (gop.length > 0 && source.key(f)) return { boundary: f, held };
    gop.push(f);
    held += source.bytes(f);
    if (held > HELD_GOP_BYTES) break;
  }
  return { boundary: null, held };
}

/** The frame duration on the copy's clock: the smallest step between a GOP's presentation times (`fallback` for a single frame). */
export function frameStepOf(times: readonly number[], fallback: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! > sorted[i - 1]!) step = Math.min(step, sorted[i]! - sorted[i - 1]!);
  return Number.isFinite(step) ? step : fallback;
}

/**
 * Where the clip starts in its first GOP: on its keyframe (copied as it is), or at the first frame
 * shown at or after `origin` (the head re-encoded from there); and whether the whole clip lies in that GOP.
 */
export function openingOf<F>(source: FrameSource<F>, first: readonly F[], boundary: F | null, at: { origin: number; end: number; frame: number }) {
  const startsOnKey = source.key(first[0]!) && Math.abs(source.pts(first[0]!) - at.origin) < at.frame / 2;
  const shown = first.map((f) => source.pts(f)).filter((t) => t >= at.origin);
  const firstPts = startsOnKey ? source.pts(first[0]!) : Math.min(...shown, boundary ? source.pts(boundary) : Infinity);
  const inOneGop = !boundary || source.pts(boundary) > at.end + at.frame / 2;
  return { startsOnKey, firstPts, inOneGop };
}

export interface GopParts<F> {
  copy(gop: F[]): Promise<void>;
  /** re-encodes `gop` from `from` to before `to`; `streaming`: the frames still to come too (a GOP too long to hold) */
  encode(gop: F[], from: number, to: number, streaming?: boolean): Promise<void>;
}

/** From the first GOP (and the keyframe after it) to the clip's end: head, copied GOPs, tail. */
export async function walkGops<F>(source: FrameSource<F>, first: { gop: F[]; boundary: F | null; startsOnKey: boolean }, at: { origin: number; end: number; frame: number }, parts: GopParts<F>): Promise<void> {
  let { gop, boundary } = first;
  let gopStart = at.origin; // where the part taken from this GOP starts: the clip's start for the first, its keyframe after
  let copyable = first.startsOnKey;
  for (;;) {
    if (boundary === null || source.pts(boundary) > at.end + at.frame / 2) {
      // the GOP holds the clip's end: the tail, re-encoded from its start to the end (or the whole first GOP)
      if (gopStart < at.end - at.frame / 2) await parts.encode(gop, gopStart, at.end);
      return;
    }
    if (copyable) await parts.copy(gop);
    else await parts.encode(gop, gopStart, source.pts(boundary));
    if (Math.abs(source.pts(boundary) - at.end) <= at.frame / 2) return; // the clip ends on a keyframe: no tail
    gopStart = source.pts(boundary);
    gop = [boundary];
    copyable = true;
    const read = await readGop(source, gop, source.bytes(boundary));
    boundary = read.boundary;
    if (read.held > HELD_GOP_BYTES) {
      // too long to hold until its end is known: re-encoded from its keyframe to the clip's end as it streams
      await parts.encode(gop, gopStart, at.end, true);
      return;
    }
  }
}

/** The stream a smart cut's parts are written to, and the processes it started (stopped with it). */
export class CutOutput {
  readonly out = new PassThrough({ highWaterMark: 1024 * 1024 });
  readonly encoders = new Set<FfmpegRun>();
  readonly summary: SmartCutSummary = { mode: "smart", copiedFrames: 0, encodedParts: 0 };
  private settleFirst!: { resolve(seconds: number): void; reject(err: Error): void };
  /** seconds from the clip's start to its first frame (see SmartCut.firstFrame) */
  readonly firstFrame = new Promise<number>((resolve, reject) => (this.settleFirst = { resolve, reject }));

  constructor(
    private readonly reader: FfmpegRun,
    private readonly signal: AbortSignal,
  ) {
    this.firstFrame.catch(() => undefined);
    signal.addEventListener("abort", this.shutdown, { once: true });
    this.out.once("close", this.released);
  }

  /** the copy's run is done: a copy that also writes another output (a muxed VP9's audio) is left to end on its own */
  private done = false;

  /** A visitor who left, or a failure: the copy and the encoders are stopped, whatever the copy feeds. */
  readonly shutdown = (): void => {
    this.reader.shutdown();
    for (const e of this.encoders) e.shutdown();
  };

  /** The parts read to their end (or no longer wanted) by the mux: a copy that feeds it another output too goes on to its own end. */
  private readonly released = (): void => {
    if (this.done && this.feedsAnother()) for (const e of this.encoders) e.shutdown();
    else this.shutdown();
  };

  private feedsAnother(): boolean {
    return this.reader.outputs.length > 0;
  }

  async write(bytes: Buffer): Promise<void> {
    if (this.out.destroyed) throw new EngineError("download.failed", { detail: "the clip's muxer went away" });
    if (!this.out.write(bytes)) await once(this.out, "drain", { signal: this.signal });
  }

  startsAfter(seconds: number): void {
    this.settleFirst.resolve(seconds);
  }

  /** Ends the stream when `run` is done (the copy stopped: nothing more is needed from it), or fails it. */
  finish(run: Promise<void>, onFailure: () => void): void {
    run.then(
      () => {
        this.done = true;
        // it may still be reading past the end: stopped, or, when it writes another output the mux still reads (a muxed VP9's
        // audio), its video drained while it reads on to its own end (half a second past the clip's)
        if (this.feedsAnother()) drain(this.reader.output);
        else this.reader.shutdown();
        this.out.end();
      },
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        onFailure();
        this.settleFirst.reject(error);
        this.shutdown();
        this.out.destroy(error);
      },
    );
  }
}

/** Reads `stream` to its end, the bytes dropped (a paused stream too: the frames' async iterator still listens to it). */
function drain(stream: Readable): void {
  const read = () => {
    while (stream.read() !== null);
  };
  stream.on("readable", read);
  read();
}
