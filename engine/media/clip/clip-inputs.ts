/**
 * The inputs of a clip's ffmpeg run (docs/decisions/061): a direct stream becomes a seekable
 * loopback input (ffmpeg's demuxer reads the index, then only the byte ranges of the samples it
 * needs); a segmented one stays a pipe, already cut to its covering segments by the plan.
 */
import type { Readable } from "node:stream";
import { EngineError } from "../../errors.ts";
import type { MediaPlan, UpstreamStream } from "../../types.ts";
import { prepend, readUntil } from "../tags/tag-stream.ts";
import { serveLoopbackInput, WINDOW_BYTES, type LoopbackInput, type LoopbackRead } from "./loopback-input.ts";
import { tsLeadKnown, tsVideoLead } from "./ts-start.ts";

/** A TS segment's first PES headers are in its first packets: this much is read at most to find them. */
const TS_HEAD_BYTES = 128 * 1024;

/**
 * How a clip reads a direct stream: each loopback answer (a window, loopback-input.ts) is one
 * upstream request of exactly its bytes, never more, never in parallel.
 */
export const CLIP_READ_LIMITS = { chunkBytes: WINDOW_BYTES.largest, maxChunkBytes: WINDOW_BYTES.largest, rangeConcurrency: 1 } as const;

export interface ClipInputs {
  /** per input: the loopback URL ffmpeg opens, or null for a pipe */
  urls: (string | null)[];
  /** the piped inputs, in order (ffmpeg's pipe:3, pipe:4…) */
  pipes: Readable[];
  loopbacks: LoopbackInput[];
  /** per input: seconds to add to its seek (docs/decisions/061) */
  leads: number[];
}

export async function openClipInputs(
  streams: UpstreamStream[],
  opts: {
    /** a segmented input, read whole as a pipe */
    openPiped(stream: UpstreamStream): Promise<Readable>;
    /** one range of a direct input, aborted by `signal` */
    openRange(stream: UpstreamStream, range: { start: number; end?: number }, signal: AbortSignal): Promise<LoopbackRead>;
    signal: AbortSignal;
    onFailure(err: Error): void;
  },
): Promise<ClipInputs> {
  const urls: (string | null)[] = [];
  /** per input: seconds to add to the plan's seek (a muxed TS segment whose audio starts first) */
  const leads: number[] = streams.map(() => 0);
  const pipes: Readable[] = [];
  const loopbacks: LoopbackInput[] = [];
  for (const stream of streams) {
    if (stream.transport.type === "segments") {
      urls.push(null);
      const piped = await opts.openPiped(stream);
      if (stream.container !== "ts" || stream.kind !== "progressive") {
        pipes.push(piped);
        continue;
      }
      // a muxed TS segment: ffmpeg seeks from its earliest packet, the playlist's times are the video's
      const head = await readUntil(piped, tsLeadKnown, TS_HEAD_BYTES, opts.signal);
      leads[streams.indexOf(stream)] = tsVideoLead(head) ?? 0;
      pipes.push(prepend(head, piped));
      continue;
    }
    const loopback = await serveLoopbackInput({
      read: async (range, signal) => {
        const read = await opts.openRange(stream, range, signal);
        const signature = SIGNATURES[stream.container];
        return range.start === 0 && signature ? { ...read, body: await checkedHead(read.body, stream.container, signature, signal) } : read;
      },
      total: stream.contentLength ?? null,
      signal: opts.signal,
      onFailure: opts.onFailure,
    });
    loopbacks.push(loopback);
    urls.push(loopback.url);
  }
  return { urls, pipes, loopbacks, leads };
}

/**
 * The first bytes an MP4 or a WebM starts with. ffmpeg may only read a loopback input with media
 * demuxers (`-format_whitelist`, media/ffmpeg.ts), so bytes that probe as a playlist are refused
 * there; an upstream that answers a clip's first read with something else than the file it had at
 * resolve is caught here already, and fails the download with the upstream's error, not ffmpeg's.
 */
const SIGNATURES: Partial<Record<UpstreamStream["container"], (head: Buffer) => boolean>> = {
  mp4: isMp4Head,
  m4a: isMp4Head,
  webm: (head) => head.readUInt32BE(0) === 0x1a45dfa3,
};

const MP4_FIRST_BOXES = new Set(["ftyp", "moov", "mdat", "free", "skip", "wide", "styp", "sidx", "pnot"]);

function isMp4Head(head: Buffer): boolean {
  return MP4_FIRST_BOXES.has(head.toString("latin1", 4, 8));
}

/** The body of a read from the file's first byte, once its first bytes are the container's. */
async function checkedHead(body: Readable, container: string, signature: (head: Buffer) => boolean, signal: AbortSignal): Promise<Readable> {
  const head = await readUntil(body, (buf) => buf.length >= 8, 64 * 1024, signal);
  if (head.length < 8 || !signature(head)) {
    body.destroy();
    throw new EngineError("upstream.fetch_failed", { detail: `the ${container} stream no longer starts as one` });
  }
  return prepend(head, body);
}

/** The plan with each input's seek moved on by its lead (a muxed TS segment whose audio starts first). */
export function withClipLeads(plan: MediaPlan, inputs: ClipInputs | null): MediaPlan {
  if (!inputs || (plan.op !== "remux" && plan.op !== "transcode") || !plan.clip) return plan;
  const clip = plan.clip;
  return { ...plan, clip: { ...clip, seeks: clip.seeks.map((s, i) => s + (inputs.leads[i] ?? 0)) } };
}
