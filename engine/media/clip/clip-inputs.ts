/**
 * The inputs of a clip's ffmpeg run (docs/decisions/061): a direct stream becomes a seekable
 * loopback input (ffmpeg's demuxer reads the index, then only the byte ranges of the samples it
 * needs); a segmented one stays a pipe, already cut to its covering segments by the plan.
 */
import type { Readable } from "node:stream";
import type { UpstreamStream } from "../../types.ts";
import { serveLoopbackInput, WINDOW_BYTES, type LoopbackInput, type LoopbackRead } from "./loopback-input.ts";

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
  const pipes: Readable[] = [];
  const loopbacks: LoopbackInput[] = [];
  for (const stream of streams) {
    if (stream.transport.type === "segments") {
      urls.push(null);
      pipes.push(await opts.openPiped(stream));
      continue;
    }
    const loopback = await serveLoopbackInput({
      read: (range, signal) => opts.openRange(stream, range, signal),
      total: stream.contentLength ?? null,
      signal: opts.signal,
      onFailure: opts.onFailure,
    });
    loopbacks.push(loopback);
    urls.push(loopback.url);
  }
  return { urls, pipes, loopbacks };
}
