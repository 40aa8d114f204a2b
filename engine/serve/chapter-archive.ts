/**
 * Split by chapter (issue 33 §2, docs/decisions/070): one file per chapter, each a clip of the
 * chosen format made by the clip machinery of docs/decisions/061 (only the ranges or segments that
 * cover it are fetched), written into the streamed ZIP of bulk downloads (media/zip/zip-stream.ts)
 * one after another: a chapter's readers open when the one before it is in the archive, so memory
 * does not grow with the number of chapters and nothing is written to disk.
 */
import type { ParsedLink } from "#common/links.ts";
import { sharedCueReads } from "../captions/subtitle-file.ts";
import { ERRORS, isEngineError } from "../errors.ts";
import { viaEgress } from "../outbound/outbound-fetch.ts";
import { planFormat } from "../formats.ts";
import { chapterPieces, checkSplitFormat, pieceFileName, type ChapterPiece } from "../media/chapters/split-chapters.ts";
import type { MediaOptions } from "../media/options/media-options.ts";
import { sponsorChapters } from "../media/sponsorblock/plan-sponsorblock.ts";
import type { SkipSegment } from "../media/sponsorblock/segments.ts";
import { tagBytes } from "../media/tags/plan-tags.ts";
import { createZipStream, ZipEntryError } from "../media/zip/zip-stream.ts";
import type { FileProgress, FilesProgress } from "../state/progress-registry.ts";
import type { PlanOutput } from "../stream/run-plan.ts";
import type { FormatId, MediaPlan, ResolvedMedia, TagFields } from "../types.ts";
import type { MediaContext } from "./open-media.ts";
import { openPlan } from "./open-plan.ts";

/** One file of a chapter ZIP: its piece of the video, its plan (a clip), its name in the archive. */
export interface ChapterPart extends ChapterPiece {
  plan: MediaPlan;
  fileName: string;
}

/** The piece's own tags: its chapter's title, the video's as its album, its place; the other fields (artist, date, cover…) are the video's. */
function pieceTags(plan: MediaPlan, fields: Partial<TagFields>): MediaPlan {
  if ((plan.op !== "passthrough" && plan.op !== "remux" && plan.op !== "transcode") || !plan.tags) return plan;
  const tags = { ...plan.tags, fields: { ...plan.tags.fields, ...fields } };
  return { ...plan, tags, bytes: plan.bytes === null ? null : plan.bytes + tagBytes(tags) - tagBytes(plan.tags) } as MediaPlan;
}

/**
 * The files a split gives, each planned as the clip of its piece would be on its own, before a link
 * is signed and again when it opens: a format without a timeline, a video without chapters, or a
 * piece the format cannot give is refused here with its catalogue code. SponsorBlock's segments
 * (`segments`, when asked for and known) are cut out of each piece, or, marked as chapters, split
 * the video at their edges as in a single file (docs/decisions/065).
 */
export function planChapterSplit(media: ResolvedMedia, format: FormatId, options: MediaOptions, segments: readonly SkipSegment[] | null): ChapterPart[] {
  checkSplitFormat(format);
  const marked = options.sponsorblock?.action === "chapters" && segments?.length ? segments : null;
  const cut = options.sponsorblock?.action === "cut" && segments?.length ? segments : [];
  // the video's own chapters decide whether it can be split; SponsorBlock's only add edges
  const own = media.chapters?.length ? media.chapters : undefined;
  const chapters = own && marked ? sponsorChapters(own, marked, media.details.durationSeconds) : own;
  const pieces = chapterPieces(chapters, { start: options.start, end: options.end }, cut);
  // each piece is a clip with the download's other options; segments marked as chapters are the pieces themselves
  const each: MediaOptions = { ...options, chapters: undefined, ...(marked ? { sponsorblock: undefined } : {}) };
  return pieces.map((piece) => {
    const planned = planFormat(media, format, { ...each, start: piece.start, end: piece.end }, marked ? null : segments);
    const plan = pieceTags(planned, { title: piece.title || media.details.title, album: media.details.title, track: { number: piece.position, total: pieces.length } });
    return { ...piece, plan, fileName: pieceFileName(piece, pieces.length, plan.extension) };
  });
}

/** What a failed file's progress says: the catalogue's sentence, never an internal message. */
function partError(err: unknown): string {
  return isEngineError(err) ? err.message : ERRORS["download.failed"].message;
}

/**
 * The ZIP of `parts` as a plan's output (`application/zip`, length unknown): built only once its
 * reader starts reading (a HEAD request opens no chapter), each part's readers opened and torn down
 * in turn. A part that fails fails the whole archive with that part's error: the visitor sees a
 * failed download, never a ZIP short of a chapter. `teardown` stops the part being made.
 *
 * Subtitles (docs/decisions/069): the caption track is read once, here, before the archive's
 * headers (a track that cannot be read is the link's error, as for a single file), and every
 * chapter takes its own span of the same cues.
 */
export async function openChapterArchive(
  ctx: MediaContext,
  link: ParsedLink,
  media: ResolvedMedia,
  parts: readonly ChapterPart[],
  opts: { id: string; signal: AbortSignal; onFiles?: (files: FilesProgress) => void },
): Promise<PlanOutput> {
  const readCues = sharedCueReads();
  const subtitled = parts[0]?.plan;
  if (subtitled?.op === "remux" && subtitled.subtitles) await readCues(subtitled.subtitles.track, viaEgress(ctx.outbound, media.egress).fetch, opts.signal);
  const controller = new AbortController();
  const stop = () => controller.abort(opts.signal.reason);
  if (opts.signal.aborted) stop();
  else opts.signal.addEventListener("abort", stop, { once: true });
  let started = false;
  // the first chapter opens when the archive's reader first asks for bytes (docs/decisions/070)
  const zip = createZipStream({ now: () => new Date(ctx.now()), onFirstRead: () => begin() });
  const items: FileProgress[] = parts.map((p) => ({ status: "pending", title: p.title }));
  const counts = { done: 0, failed: 0 };
  const tell = () => opts.onFiles?.({ total: items.length, done: counts.done, failed: counts.failed, items: items.map((i) => ({ ...i })) });
  let current: PlanOutput | null = null;

  async function build(): Promise<void> {
    tell();
    for (const [index, part] of parts.entries()) {
      const item = items[index]!;
      const partId = `${opts.id}_${part.position}`;
      item.status = "running";
      tell();
      try {
        if (controller.signal.aborted) throw controller.signal.reason;
        current = await openPlan(ctx, link, media, part.plan, { id: partId, signal: controller.signal, readCues });
        await zip.addEntry(part.fileName, current.body);
      } catch (err) {
        const cause = err instanceof ZipEntryError ? err.cause : err;
        // stopped (the visitor left, the engine closes): no chapter failed
        if (controller.signal.aborted) throw cause;
        item.status = "failed";
        item.error = partError(cause);
        counts.failed++;
        tell();
        throw cause;
      } finally {
        current?.teardown();
        current = null;
        ctx.prefetch.release(partId);
      }
      item.status = "done";
      counts.done++;
      tell();
    }
    await zip.finish();
  }

  function begin(): void {
    if (started || controller.signal.aborted) return;
    started = true;
    build().catch((err: unknown) => {
      if (!controller.signal.aborted) ctx.logger.info({ download: opts.id, code: isEngineError(err) ? err.code : undefined }, "chapter archive failed");
      zip.abort(err instanceof Error ? err : new Error(String(err)));
    });
  }
  controller.signal.addEventListener("abort", () => {
    current?.teardown();
    zip.abort(controller.signal.reason instanceof Error ? controller.signal.reason : new Error("the archive was stopped"));
  });
  return {
    status: 200,
    headers: { "content-type": "application/zip" },
    body: zip.output,
    length: null,
    teardown() {
      opts.signal.removeEventListener("abort", stop);
      if (!controller.signal.aborted) controller.abort(new Error("the archive was torn down"));
    },
  };
}
