/**
 * The one path from a link to a file's bytes: resolve (cached), plan the format, open the plan's
 * readers (or, split by chapter, a ZIP of one clip per chapter). A signed link's response
 * (serve-download.ts), a bulk ZIP's entries (serve-bulk.ts) and `engine.openDownload` (jobs) all
 * go through it.
 */
import type { ParsedLink } from "#common/links.ts";
import { withSubtitleLanguage } from "../captions/languages.ts";
import { filenameFor, planFormat } from "../formats.ts";
import type { MediaOptions } from "../media/options/media-options.ts";
import { checkSubtitleLanguage, checkSubtitles } from "../captions/plan-subtitles.ts";
import { renderFilename } from "./filename-template.ts";
import type { PlanOutput } from "../stream/run-plan.ts";
import type { Caller, FormatId, ResolvedMedia } from "../types.ts";
import type { ServeContext } from "./serve-download.ts";
import { openPlan } from "./open-plan.ts";
import { openChapterArchive, planChapterSplit } from "./chapter-archive.ts";
import { chapterArchiveName } from "../media/chapters/split-chapters.ts";
import type { FilesProgress } from "../state/progress-registry.ts";
import type { SkipSegment } from "../media/sponsorblock/segments.ts";
import type { SponsorBlock } from "../sources/youtube/sponsorblock.ts";

export type MediaContext = Pick<
  ServeContext,
  "config" | "logger" | "now" | "outbound" | "media" | "prefetch" | "resolve" | "resolveAvoiding" | "resolveOnOtherEgress" | "refusals" | "killGraceMs" | "spawnGate" | "sponsorBlock"
>;

/**
 * What became of a download's SponsorBlock option (docs/decisions/065; the `X-SponsorBlock` header):
 * `applied` (segments cut out or written as chapters), `none` (the video has none in the asked
 * categories), `unavailable` (the API did not answer in time: the file goes out without them).
 */
export type SponsorBlockOutcome = "applied" | "none" | "unavailable";

export interface OpenedMedia {
  media: ResolvedMedia;
  filename: string;
  /** the plan's output; its `teardown` stops every upstream and ffmpeg */
  out: PlanOutput;
  /** set when the options asked for SponsorBlock */
  sponsorBlock?: SponsorBlockOutcome;
}

export async function openMedia(
  ctx: MediaContext,
  link: ParsedLink,
  format: FormatId,
  opts: {
    /** the download id (logs, prefetched segments) */
    id: string;
    /** who the link was made for: the options a plan unlocks are checked again (subtitles, docs/decisions/069) */
    caller: Caller;
    /** aborted when the download is torn down */
    signal: AbortSignal;
    /** a `Range` header to honour */
    range?: string;
    /** the subtitle language of a text format (the link's claim) */
    language?: string;
    /** a download profile's file-name template (the link's claim) */
    filenameTemplate?: string;
    /** the download's media options (the link's claim; absent: the defaults) */
    options?: MediaOptions;
    /** called once the media is known, before any reader opens */
    onResolved?: (media: ResolvedMedia) => void;
    /** a chapter ZIP's files changed state (one started, ended or failed) */
    onFiles?: (files: FilesProgress) => void;
  },
): Promise<OpenedMedia> {
  // the plan the link names holds the right, whatever made the link (one signed before this rule was)
  checkSubtitles(opts.caller, format, opts.options, ctx.media.burnSubtitles);
  const resolved = await ctx.resolve(link);
  const media = opts.language ? withSubtitleLanguage(resolved, opts.language) : resolved;
  checkSubtitleLanguage(opts.caller, media, opts.options);
  const segments = await sponsorSegmentsFor(ctx.sponsorBlock, media, opts.options, opts.signal);
  const sponsorBlock: SponsorBlockOutcome | undefined = opts.options?.sponsorblock ? (segments === null ? "unavailable" : segments.length > 0 ? "applied" : "none") : undefined;
  const defaultName = filenameFor(media, format, opts.language, opts.options);
  const filename = opts.filenameTemplate ? renderFilename(opts.filenameTemplate, media, format, defaultName, opts.language, opts.options) : defaultName;
  if (opts.options?.chapters === "split") {
    // one clip per chapter, each made when the one before it is in the ZIP (docs/decisions/070)
    const parts = planChapterSplit(media, format, opts.options, segments);
    opts.onResolved?.(media);
    const out = await openChapterArchive(ctx, link, media, parts, { id: opts.id, signal: opts.signal, onFiles: opts.onFiles });
    return { media, filename: chapterArchiveName(filename), out, ...(sponsorBlock ? { sponsorBlock } : {}) };
  }
  const plan = planFormat(media, format, opts.options, segments);
  opts.onResolved?.(media);
  const out = await openPlan(ctx, link, media, plan, { id: opts.id, signal: opts.signal, range: opts.range });
  return { media, filename, out, ...(sponsorBlock ? { sponsorBlock } : {}) };
}

/**
 * SponsorBlock's segments for a download that asks for them: at most the client's timeout (3 s),
 * null when it could not tell. Asked when a link is made (so its `bytes` is the cut file's) and
 * again when it opens, from the client's cache by then.
 */
export async function sponsorSegmentsFor(
  sponsorBlock: SponsorBlock | undefined,
  media: ResolvedMedia,
  options: MediaOptions | undefined,
  signal?: AbortSignal,
): Promise<SkipSegment[] | null> {
  if (!options?.sponsorblock || media.platform !== "youtube" || !sponsorBlock) return null;
  return sponsorBlock.segmentsFor(media.details.id, options.sponsorblock.categories, signal);
}
