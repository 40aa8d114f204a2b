/**
 * A planned file's readers opened: the plan run (run-plan.ts) with the download's egress, limits
 * and the refusal ladder's ways round a 403 (smaller ranges, a fresh resolve, the next client, the
 * next egress). One file of a link (open-media.ts) and each file of a chapter ZIP
 * (chapter-archive.ts) are opened here.
 */
import type { ParsedLink } from "#common/links.ts";
import type { ReadCues } from "../captions/subtitle-file.ts";
import { processHostRefusals } from "../outbound/host-refusals.ts";
import { viaEgress } from "../outbound/outbound-fetch.ts";
import { createRefusalLadder } from "../stream/refusal-ladder.ts";
import { runPlan, type PlanOutput } from "../stream/run-plan.ts";
import type { MediaPlan, ResolvedMedia } from "../types.ts";
import type { MediaContext } from "./open-media.ts";
import { createStreamRefresh } from "./stream-refresh.ts";

export async function openPlan(
  ctx: MediaContext,
  link: ParsedLink,
  media: ResolvedMedia,
  plan: MediaPlan,
  opts: {
    /** the download id (logs, prefetched segments) */
    id: string;
    /** aborted when the download is torn down */
    signal: AbortSignal;
    /** a `Range` header to honour */
    range?: string;
    /** the caption track's reads, when several files share one (a chapter ZIP) */
    readCues?: ReadCues;
  },
): Promise<PlanOutput> {
  const logger = ctx.logger.child({ download: opts.id });
  const { resolveAvoiding, resolveOnOtherEgress } = ctx;
  const out = await runPlan(
    plan,
    {
      // the egress the media was resolved on: thumbnails and captions too (each stream names its own)
      outbound: viaEgress(ctx.outbound, media.egress),
      media: ctx.media,
      limits: ctx.config.limits,
      logger,
      signal: opts.signal,
      killGraceMs: ctx.killGraceMs,
      spawnGate: ctx.spawnGate,
      prefetch: ctx.prefetch,
      readCues: opts.readCues,
      // a refusal (403): smaller ranges, a fresh resolve, the next client, each once (issue 32 §4)
      refreshStream: createStreamRefresh({
        reResolve: () => ctx.resolve(link, true),
        resolveAvoiding: resolveAvoiding ? (clients) => resolveAvoiding(link, clients, opts.signal) : undefined,
        resolveOnOtherEgress: resolveOnOtherEgress ? (refused) => resolveOnOtherEgress(link, refused, opts.signal) : undefined,
        logger,
      }),
      refusals: createRefusalLadder({ ...ctx.refusals, hosts: ctx.refusals?.hosts ?? processHostRefusals, logger }),
    },
    { range: opts.range },
  );
  // the readers took what was fetched for them; anything else was a guess that missed
  ctx.prefetch.release(opts.id);
  return out;
}
