/**
 * A preview frame's readers (docs/decisions/071): the media's egress and the engine's limits, each
 * of a direct input's ranges read as a clip's are (media/clip/clip-inputs.ts), a few frames at a
 * time in this process, and never longer than FRAME_DEADLINE_MS. An upstream that refuses the
 * cached resolve's URLs (expired: 403, 410) costs one fresh resolve of the link, and the frame is
 * read again from its URLs: a download's re-resolve rung (decision 056), climbed at most once.
 */
import { EngineError, isEngineError } from "../errors.ts";
import { CLIP_READ_LIMITS } from "../media/clip/clip-inputs.ts";
import { createFrameSlots, frameTime, renderFrame } from "../media/clip/frame.ts";
import { processHostRefusals } from "../outbound/host-refusals.ts";
import { viaEgress } from "../outbound/outbound-fetch.ts";
import { createRefusalLadder } from "../stream/refusal-ladder.ts";
import { openInput, type RunContext } from "../stream/run-plan.ts";
import type { ResolvedMedia } from "../types.ts";
import type { ServeContext } from "./serve-download.ts";

/** A preview that takes longer is no preview: the picker has moved on, and its ffmpeg stops. */
export const FRAME_DEADLINE_MS = 20_000;

/** Two frames decode at once (a machine has few cores and downloads come first), four more may wait. */
const frameSlots = createFrameSlots(2, 4);

export type FrameContext = Pick<ServeContext, "config" | "logger" | "outbound" | "media" | "refusals" | "killGraceMs" | "spawnGate" | "active">;

export interface FrameOptions {
  /** the asker left */
  signal?: AbortSignal;
  /**
   * a fresh resolve of the link (never the cache; its answer replaces the cached one), asked once
   * when the upstream refuses the first one's URLs; absent: such a refusal fails the frame
   */
  reResolve?: (signal: AbortSignal) => Promise<ResolvedMedia>;
}

/** What an upstream answers a URL that expired or that it will no longer serve (403, 404, 410): a fresh resolve may cure it. */
function staleUrl(err: unknown): boolean {
  return isEngineError(err) && (err.code === "upstream.expired" || err.code === "upstream.refused");
}

/** The JPEG of the frame at `asked` (seconds or h:mm:ss) of resolved media. */
export async function openFrame(ctx: FrameContext, media: ResolvedMedia, asked: string | number, opts: FrameOptions = {}): Promise<Buffer> {
  const { signal } = opts;
  frameTime(media, asked);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new EngineError("upstream.timeout", { detail: `frame over ${FRAME_DEADLINE_MS} ms` })), FRAME_DEADLINE_MS);
  const leave = () => controller.abort(signal?.reason);
  if (signal?.aborted) leave();
  else signal?.addEventListener("abort", leave, { once: true });
  ctx.active.add(controller);
  const release = await frameSlots.take(controller.signal).catch((err: unknown) => {
    clearTimeout(timer);
    ctx.active.delete(controller);
    throw err;
  });
  const logger = ctx.logger.child({ frame: media.details.id });
  // one ladder for both reads: the frame's budget of refusals, and the host's
  const refusals = createRefusalLadder({ ...ctx.refusals, hosts: ctx.refusals?.hosts ?? processHostRefusals, logger });
  const read = (from: ResolvedMedia) => {
    const run: RunContext = {
      outbound: viaEgress(ctx.outbound, from.egress),
      media: ctx.media,
      limits: { ...ctx.config.limits, ...CLIP_READ_LIMITS },
      logger,
      signal: controller.signal,
      killGraceMs: ctx.killGraceMs,
      spawnGate: ctx.spawnGate,
      refusals,
    };
    return renderFrame(from, frameTime(from, asked), {
      tools: ctx.media,
      openPiped: async (stream) => (await openInput(stream, run)).body,
      openRange: async (stream, range, readSignal) => {
        const opened = await openInput(stream, { ...run, signal: AbortSignal.any([controller.signal, readSignal]) }, range);
        return { body: opened.body, total: opened.total };
      },
      signal: controller.signal,
      spawnGate: ctx.spawnGate,
      killGraceMs: ctx.killGraceMs,
    });
  };
  try {
    try {
      return await read(media);
    } catch (err) {
      if (!opts.reResolve || !staleUrl(err) || controller.signal.aborted) throw err;
      logger.info({ code: (err as EngineError).code }, "upstream refused the frame's stream URL: re-resolving the link once");
      return await read(await opts.reResolve(controller.signal));
    }
  } catch (err) {
    // the deadline's own error rather than the reader's "aborted"
    throw controller.signal.aborted && controller.signal.reason instanceof EngineError ? controller.signal.reason : err;
  } finally {
    release();
    clearTimeout(timer);
    signal?.removeEventListener("abort", leave);
    ctx.active.delete(controller);
  }
}
