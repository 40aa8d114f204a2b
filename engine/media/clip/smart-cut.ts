/**
 * An exact clip of H.264 video that re-encodes only its first and last group of pictures and
 * copies the rest (issue 33 §1, docs/decisions/072).
 *
 * One ffmpeg copies the clip's video as MPEG-TS, from the keyframe at or before its start to a
 * little past its end. Its frames are read here a group of pictures (GOP, IDR to IDR) at a time:
 * - the first GOP, unless the clip starts on its IDR, is decoded and re-encoded from the start to
 *   the next IDR (the head);
 * - every GOP that ends at or before the clip's end is copied as it came;
 * - the GOP holding the end is re-encoded from its IDR to the end (the tail).
 * The parts are joined into one MPEG-TS stream for the muxing ffmpeg. Re-encoded pictures keep the
 * source's profile, level and reordering delay, so decoding times run on across the joins, and use
 * parameter sets of their own id: the muxer's avcC then lists the source's and theirs
 * (`parameterSets`, added by avcc.ts). Nothing is fetched twice: the encoders read the frames the
 * copy already holds. At most one GOP is held in memory; a longer one is re-encoded as it streams.
 *
 * A source this cannot join (another profile, a longer reordering delay, no parameter sets in its
 * first frame) is re-encoded whole, as before, from the same copy. The walk over GOPs is shared
 * with VP9's smart cut (smart-cut-gops.ts); what is H.264's and MPEG-TS's is here.
 */
import { Readable } from "node:stream";
import { EngineError } from "../../errors.ts";
import { runFfmpeg, SMART_CUT_ORIGIN_SECONDS, smartCutEncoderArgs, type EdgeEncoding, type FfmpegRun, type MediaTools } from "../ffmpeg.ts";
import { ContinuityCounters, NAL, PacketReader, packetPid, TS_CLOCK, VideoUnitReader, type VideoUnit } from "./mpegts.ts";
import { CutOutput, frameStepOf, HELD_GOP_BYTES, openingOf, readGop, walkGops, type FrameSource, type SmartCutSummary } from "./smart-cut-gops.ts";

export interface SmartCut {
  /** the clip's video as MPEG-TS, its first frame at SMART_CUT_ORIGIN_SECONDS */
  video: Readable;
  /** parameter sets the muxed file's avcC must list besides the ones ffmpeg writes; null: none (a whole re-encode) */
  parameterSets: Promise<Buffer[] | null>;
  /**
   * Seconds from the clip's start to its first frame (the first frame shown at or after it): the
   * muxer takes the stream's first time for zero, so its input is moved on by this (`-itsoffset`).
   */
  firstFrame: Promise<number>;
  /** what was done, for the logs and the tests */
  summary(): SmartCutSummary;
  shutdown(): void;
}

export interface SmartCutOptions {
  media: MediaTools;
  /** the copy of the clip's video (ffmpeg.ts smartCutReaderArgs), already started */
  reader: FfmpegRun;
  /** the clip's length in seconds */
  duration: number;
  /** resolves when the next ffmpeg may be spawned (the process-wide spawn gate) */
  turn(): Promise<void>;
  killGraceMs?: number;
  signal: AbortSignal;
}

const PROFILES: Record<number, EdgeEncoding["profile"]> = { 66: "baseline", 77: "main", 100: "high" };

/** How the source's first frame says its pictures are coded, or why they cannot be joined to x264's. */
export function edgeEncodingOf(first: readonly VideoUnit[], frameTicks: number): EdgeEncoding | string {
  const sps = first[0]?.parameterSets.find((n) => (n[0]! & 0x1f) === NAL.sps);
  if (!sps || !first[0]!.parameterSets.some((n) => (n[0]! & 0x1f) === NAL.pps)) return "no parameter sets in the first frame";
  const profile = PROFILES[sps[1]!];
  if (!profile) return `H.264 profile ${sps[1]}`;
  // the decoding times run this far ahead of the presentation times (the keyframe is shown as soon as it is decoded)
  const delay = Math.round((first[0]!.pts - first[0]!.dts) / frameTicks);
  if (delay > 2 || (profile === "baseline" && delay > 0)) return `a reordering delay of ${delay} frames`;
  return { profile, level: sps[3]!, delay: delay as 0 | 1 | 2 };
}

const unitFrames = (next: () => Promise<VideoUnit | null>): FrameSource<VideoUnit> => ({ next, key: (u) => u.idr, pts: (u) => u.pts, bytes: (u) => u.bytes });

export function openSmartCut(opts: SmartCutOptions): SmartCut {
  const cut = new CutOutput(opts.reader, opts.signal);
  const { summary } = cut;
  const counters = new ContinuityCounters();
  let resolveSets!: (sets: Buffer[] | null) => void;
  const parameterSets = new Promise<Buffer[] | null>((resolve) => (resolveSets = resolve));
  /** the source's audio (a muxed source), written after the video part it came with; none before the first frame */
  const source = new VideoUnitReader();
  let audioFrom = Infinity;
  const origin = SMART_CUT_ORIGIN_SECONDS * TS_CLOCK;
  const end = origin + Math.round(opts.duration * TS_CLOCK);

  async function write(packets: readonly Buffer[]): Promise<void> {
    for (const p of packets) await cut.write(counters.fix(p));
  }

  async function writeAudio(): Promise<void> {
    for (const pes of source.takeOtherPes()) if (pes.pts >= audioFrom) await write(pes.packets);
  }

  /**
   * Re-encodes `units` (then, with `rest`, the copy's frames still to come) from `from` to before
   * `to`, and writes its video packets (its tables are left out: the source's, which list the audio
   * too, went first). `expectSets`: the parameter sets the file lists, which its pictures must use.
   */
  async function encode(units: VideoUnit[], from: number, to: number, edge: EdgeEncoding | null, rest?: AsyncIterator<VideoUnit>, expectSets?: Promise<Buffer[]>): Promise<void> {
    summary.encodedParts++;
    const input = Readable.from(packetsOf(units, rest), { objectMode: false });
    await opts.turn();
    const encoder = runFfmpeg(opts.media, smartCutEncoderArgs({ from: from / TS_CLOCK, to: to / TS_CLOCK }, edge), [input], { killGraceMs: opts.killGraceMs, warm: null });
    cut.encoders.add(encoder);
    const reader = new PacketReader();
    const frames = new VideoUnitReader();
    let videoPid: number | null = null;
    for await (const chunk of encoder.output) {
      const packets = reader.push(chunk as Buffer);
      if (videoPid === null) {
        // the first frame is read whole, to check its parameter sets; after it, packets pass as they come
        const done = frames.push(packets);
        const first = done[0];
        if (!first) continue;
        videoPid = first.pid;
        // every part's pictures must refer to parameter sets the file lists
        const listed = await expectSets;
        if (listed && !first.parameterSets.every((n) => listed.some((known) => known.equals(n)))) {
          throw new EngineError("download.failed", { detail: "a re-encoded part's parameter sets differ from the probe's" });
        }
        const started = frames.flush();
        for (const u of started ? [...done, started] : done) await write(u.packets.filter((p) => packetPid(p) === videoPid));
        continue;
      }
      await write(packets.filter((p) => packetPid(p) === videoPid));
    }
    if (videoPid === null) {
      const only = frames.flush();
      if (only) await write(only.packets.filter((p) => packetPid(p) === only.pid));
    }
    cut.encoders.delete(encoder);
    await writeAudio();
  }

  async function probeSets(units: VideoUnit[], edge: EdgeEncoding): Promise<Buffer[]> {
    const input = Readable.from(packetsOf(units.slice(0, 1)), { objectMode: false });
    await opts.turn();
    const probe = runFfmpeg(opts.media, smartCutEncoderArgs({ from: 0, to: 1e6 }, edge, 1), [input], { killGraceMs: opts.killGraceMs, warm: null });
    cut.encoders.add(probe);
    const frames = new VideoUnitReader();
    const reader = new PacketReader();
    let first: VideoUnit | null = null;
    for await (const chunk of probe.output) first ??= frames.push(reader.push(chunk as Buffer))[0] ?? null;
    first ??= frames.flush();
    cut.encoders.delete(probe);
    if (!first || first.parameterSets.length < 2) throw new EngineError("download.failed", { detail: "the probe encode gave no parameter sets" });
    return first.parameterSets;
  }

  async function run(): Promise<void> {
    const units = unitsOf(opts.reader.output, source)[Symbol.asyncIterator]();
    const frames = unitFrames(async () => {
      const r = await units.next();
      return r.done ? null : r.value;
    });
    // the first GOP: from the keyframe at or before the start to the next IDR
    const first: VideoUnit[] = [];
    const { boundary, held } = await readGop(frames, first);
    if (first.length === 0) throw new EngineError("download.failed", { detail: "the clip's copy held no video" });
    const frame = frameStepOf(first.map((u) => u.pts), TS_CLOCK / 30);
    const edge = edgeEncodingOf(first, frame);
    const at = { origin, end, frame };
    const { startsOnKey, firstPts, inOneGop } = openingOf(frames, first, boundary, at);
    audioFrom = firstPts;
    cut.startsAfter(Number.isFinite(firstPts) ? Math.max(0, (firstPts - origin) / TS_CLOCK) : 0);
    // the source's tables first: the muxer learns every stream from them
    await write(first[0]!.packets.filter((p) => packetPid(p) !== first[0]!.pid));
    // nothing to copy: the whole clip lies in its first GOP, or a GOP too long to hold, or a source x264 cannot match
    if (typeof edge === "string" || inOneGop || held > HELD_GOP_BYTES) {
      summary.mode = "whole";
      summary.reason = typeof edge === "string" ? edge : held > HELD_GOP_BYTES ? "a GOP too long to hold" : "the clip lies in one GOP";
      resolveSets(null);
      await encode(first, origin, end, null, boundary ? prependUnit(boundary, units) : units);
      return;
    }
    // the probe runs beside the head's encode (whose pictures are checked against it once it is in)
    const sets = probeSets(first, edge).then((own) => [...first[0]!.parameterSets, ...own]);
    sets.then(resolveSets, () => undefined);
    await walkGops(frames, { gop: first, boundary, startsOnKey }, at, {
      copy: async (gop) => {
        summary.copiedFrames += gop.length;
        for (const u of gop) await write(u.packets);
        await writeAudio();
      },
      encode: (gop, from, to, streaming) => encode(gop, from, to, edge, streaming ? units : undefined, sets),
    });
    // the probe's failure is the download's, even when no part was re-encoded to await it
    await sets;
  }

  cut.finish(
    run().then(async () => {
      // the audio read past the last frame (the muxer cuts it at the clip's length)
      source.flush();
      await writeAudio();
    }),
    () => resolveSets(null),
  );

  return { video: cut.out, parameterSets, firstFrame: cut.firstFrame, summary: () => ({ ...summary }), shutdown: cut.shutdown };
}

/** The video units of a TS stream, as they complete (its other streams' PES wait in `units`). */
async function* unitsOf(ts: Readable, units: VideoUnitReader): AsyncGenerator<VideoUnit> {
  const packets = new PacketReader();
  for await (const chunk of ts) yield* units.push(packets.push(chunk as Buffer));
  const last = units.flush();
  if (last) yield last;
}

async function* prependUnit(unit: VideoUnit, rest: AsyncIterator<VideoUnit>): AsyncGenerator<VideoUnit> {
  yield unit;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield r.value;
}

/** The packets of `units`, then of the units still to come from `rest`. */
async function* packetsOf(units: readonly VideoUnit[], rest?: AsyncIterator<VideoUnit>): AsyncGenerator<Buffer> {
  for (const u of units) yield Buffer.concat(u.packets);
  if (!rest) return;
  for (let r = await rest.next(); !r.done; r = await rest.next()) yield Buffer.concat(r.value.packets);
}
