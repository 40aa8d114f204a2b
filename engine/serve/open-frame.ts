/**
 * A preview frame's readers (docs/decisions/071): the media's egress and the engine's limits, each
 * of a direct input's ranges read as a clip's are (media/clip/clip-inputs.ts), a few frames at a
 * time in this process, and never longer than FRAME_DEADLINE_MS.
 */
import { EngineError } from "../errors.ts";
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

/** The JPEG of the frame at `asked` (seconds or h:mm:ss) of resolved media; `signal`: the asker left. */
export async function openFrame(ctx: FrameContext, media: ResolvedMedia, asked: string | number, signal?: AbortSignal): Promise<Buffer> {
  const t = frameTime(media, asked);
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
  const run: RunContext = {
    outbound: viaEgress(ctx.outbound, media.egress),
    media: ctx.media,
    limits: { ...ctx.config.limits, ...CLIP_READ_LIMITS },
    logger,
    signal: controller.signal,
    killGraceMs: ctx.killGraceMs,
    spawnGate: ctx.spawnGate,
    refusals: createRefusalLadder({ ...ctx.refusals, hosts: ctx.refusals?.hosts ?? processHostRefusals, logger }),
  };
  try {
    return await renderFrame(media, t, {
      tools: ctx.media,
      openPiped: async (stream) => (await openInput(stream, run)).body,
      openRange: async (stream, range, readSignal) => {
        const read = await openInput(stream, { ...run, signal: AbortSignal.any([controller.signal, readSignal]) }, range);
        return { body: read.body, total: read.total };
      },
      signal: controller.signal,
      spawnGate: ctx.spawnGate,
      killGraceMs: ctx.killGraceMs,
    });
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
