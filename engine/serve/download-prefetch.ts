import { planFormat } from "../formats.ts";
import type { FormatId, MediaPlan, ResolvedMedia, UpstreamStream, VideoDetails } from "../types.ts";
import { segmentsInFlight } from "../stream/run-plan.ts";
import { segmentsAhead } from "../stream/segment-reader.ts";
import type { SegmentPrefetch } from "../stream/segment-prefetch.ts";

export interface DownloadPrefetch {
  /** Starts fetching the first parts of each segmented input of `plan` for download `id` (decisions 025, 029). */
  forPlan(plan: MediaPlan, id: string): void;
  /**
   * Streams an adapter knows before it has finished describing them: the plan they would give
   * (codecs unknown count as copyable, as in planFormat) names the inputs to prefetch. A guess:
   * when the finished streams plan differently, what was fetched is dropped unused.
   */
  forStreams(sourceUrl: string, format: FormatId, id: string, streams: UpstreamStream[]): void;
}

/** What a download being created fetches ahead of its readers: as many parts as they will hold. */
export function createDownloadPrefetch(prefetch: Pick<SegmentPrefetch, "start">, segmentConcurrency: number): DownloadPrefetch {
  function forPlan(plan: MediaPlan, id: string): void {
    const inputs = plan.op === "remux" ? plan.inputs : plan.op === "transcode" || plan.op === "passthrough" ? [plan.input] : [];
    for (const s of inputs) {
      if (s.transport.type !== "segments") continue;
      const { init, segments } = s.transport;
      // what the segment reader holds once it opens (init included): as many parts in flight as
      // it keeps, and as many again fetched ahead; fetched here as it would, the next as one is in
      const inFlight = segmentsInFlight(segmentConcurrency, segments);
      prefetch.start((init ? [init, ...segments] : segments).slice(0, inFlight + segmentsAhead(inFlight)), id, inFlight, s.request);
    }
  }

  return {
    forPlan,
    forStreams(sourceUrl, format, id, streams) {
      const provisional = { platform: "generic", sourceUrl, details: { durationSeconds: 0 } as VideoDetails, streams, thumbnails: [], captions: [] } satisfies ResolvedMedia;
      let plan: MediaPlan;
      try {
        plan = planFormat(provisional, format);
      } catch {
        return;
      }
      forPlan(plan, id);
    },
  };
}
