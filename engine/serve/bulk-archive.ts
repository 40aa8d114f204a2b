/**
 * One ZIP of several links in one format, built while it streams (docs/decisions/046): the
 * links are opened one after another, each only when the entry before it is done, so memory
 * does not grow with their number or size; a link that fails becomes a manifest row with its
 * error and the others still arrive; manifest.csv is the last entry. A bulk link's response
 * (serve-bulk.ts) and `engine.openBulkDownload` (a bulk job) both build it here.
 */
import type { Readable } from "node:stream";
import { ERRORS, isEngineError, redactUrls } from "../errors.ts";
import { MANIFEST_NAME, manifestCsv, type ManifestRow } from "../media/zip/manifest-csv.ts";
import { createZipStream, ZipEntryError } from "../media/zip/zip-stream.ts";
import type { FileProgress, FilesProgress } from "../state/progress-registry.ts";
import type { Caller, FormatId } from "../types.ts";
import type { MediaOptions } from "../media/options/media-options.ts";
import { openMedia, type MediaContext } from "./open-media.ts";
import { platformOfMedia, type ServeContext } from "./serve-download.ts";

/** the longest archive name we give (before ".zip") */
const MAX_NAME_CHARS = 120;

/**
 * "VidFetch bulk 2026-11-26.zip": the archive's name, from the day the link was made (UTC);
 * `unbranded` (a white-labelled API call) leaves the site's name out: "Bulk 2026-11-26.zip".
 */
export function bulkFilename(at: Date, name?: string | null, unbranded = false): string {
  const chosen = name ? archiveName(name) : "";
  if (chosen) return `${chosen}.zip`;
  const day = at.toISOString().slice(0, 10);
  return unbranded ? `Bulk ${day}.zip` : `VidFetch bulk ${day}.zip`;
}

/**
 * A caller's name for the archive (a playlist's title) made safe for a file name: no control
 * characters, path separators or characters Windows refuses, no leading dots, at most
 * MAX_NAME_CHARS. Empty when nothing usable is left.
 */
export function archiveName(name: string): string {
  const cleaned = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/[\\/:*?"<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "")
    .replace(/\.zip$/i, "")
    .trim();
  const chars = Array.from(cleaned);
  return (chars.length > MAX_NAME_CHARS ? chars.slice(0, MAX_NAME_CHARS).join("").trimEnd() : cleaned).replace(/[. ]+$/, "");
}

/** What a manifest row says of a failed item: the catalogue's sentence, never an internal message. */
function itemError(err: unknown): string {
  const cause = err instanceof ZipEntryError ? err.cause : err;
  if (isEngineError(cause)) return cause.message;
  if (err instanceof ZipEntryError) return "The file stopped before its end.";
  return ERRORS["download.failed"].message;
}

export type ArchiveContext = MediaContext & Pick<ServeContext, "parse" | "reportFinished">;

export interface BulkArchiveInput {
  /** the download id (logs; item ids are `${id}_${position}`) */
  id: string;
  urls: readonly string[];
  format: FormatId;
  /** a download profile's subtitle language and file-name template, for every file */
  language?: string;
  filenameTemplate?: string;
  /** the media options of every file (absent: the defaults) */
  options?: MediaOptions;
  caller: Caller;
  /** aborting stops the archive where it is (the client left, the engine closes, a job is stopped) */
  signal: AbortSignal;
  /** the archive's entries' dates */
  now: () => Date;
  /** the files' states changed: one started, ended or failed */
  onFiles?: (files: FilesProgress) => void;
  /** awaited after the manifest, before the archive's end is written */
  beforeEnd?: () => Promise<void>;
}

export interface BulkArchive {
  /** the ZIP's bytes, with backpressure: the next link is read only as fast as this is taken */
  output: Readable;
  /** the manifest's rows once the archive's end is written; rejects when it stopped short */
  done: Promise<ManifestRow[]>;
}

export function buildBulkArchive(ctx: ArchiveContext, input: BulkArchiveInput): BulkArchive {
  const { id, format, caller, signal } = input;
  const zip = createZipStream({ reservedNames: [MANIFEST_NAME], now: input.now });
  const items: FileProgress[] = input.urls.map(() => ({ status: "pending", title: null }));
  const counts = { done: 0, failed: 0 };
  const tell = () => input.onFiles?.({ total: items.length, done: counts.done, failed: counts.failed, items: items.map((i) => ({ ...i })) });
  const onAbort = () => zip.abort(signal.reason instanceof Error ? signal.reason : new Error("the archive was stopped"));
  signal.addEventListener("abort", onAbort, { once: true });

  async function build(): Promise<ManifestRow[]> {
    const rows: ManifestRow[] = [];
    tell();
    for (const [index, url] of input.urls.entries()) {
      if (signal.aborted) throw new Error("the archive was stopped");
      const position = index + 1;
      const itemId = `${id}_${position}`;
      const item = items[index]!;
      item.status = "running";
      tell();
      let entryName: string | null = null;
      let opened: Awaited<ReturnType<typeof openMedia>> | null = null;
      // the item's platform, client and egress once resolved: each file feeds the platform's health
      let source: ReturnType<typeof platformOfMedia> = {};
      try {
        const link = ctx.parse(url);
        opened = await openMedia(ctx, link, format, { id: itemId, caller, signal, language: input.language, filenameTemplate: input.filenameTemplate, options: input.options });
        source = platformOfMedia(link, opened.media);
        item.title = opened.media.details.title;
        tell();
        const entry = await zip.addEntry(opened.filename, opened.out.body);
        entryName = entry.name;
        rows.push({ position, title: item.title, source: url, format, fileName: entry.name, bytes: entry.bytes, sha256: entry.sha256, status: "ok" });
        ctx.reportFinished({ id: itemId, caller, format, title: item.title, bytes: entry.bytes, complete: true, ...source });
        item.status = "done";
        counts.done++;
        tell();
      } catch (err) {
        const partial = err instanceof ZipEntryError ? err.entry : null;
        // stopped during this file: it shows as failed in history, and the archive ends here
        if (signal.aborted) {
          if (item.title) ctx.reportFinished({ id: itemId, caller, format, title: item.title, bytes: partial?.bytes ?? null, complete: false, ...source });
          throw err;
        }
        const error = itemError(err);
        rows.push({
          position,
          title: item.title ?? "",
          source: url,
          format,
          fileName: partial?.name ?? entryName,
          bytes: partial?.bytes ?? null,
          sha256: partial?.sha256 ?? null,
          status: "failed",
          error,
        });
        ctx.logger.info({ download: id, position, code: isEngineError(err) ? err.code : undefined, detail: redactUrls((err as Error)?.message) }, "bulk item failed");
        if (item.title) ctx.reportFinished({ id: itemId, caller, format, title: item.title, bytes: partial?.bytes ?? null, complete: false, ...source, error: isEngineError(err) ? err.code : "download.failed" });
        item.status = "failed";
        item.error = error;
        counts.failed++;
        tell();
      } finally {
        opened?.out.teardown();
        ctx.prefetch.release(itemId);
      }
    }
    await zip.addEntry(MANIFEST_NAME, manifestCsv(rows), { reserved: true });
    await input.beforeEnd?.();
    await zip.finish();
    return rows;
  }

  const done = build().then(
    (rows) => {
      signal.removeEventListener("abort", onAbort);
      return rows;
    },
    (err: unknown) => {
      signal.removeEventListener("abort", onAbort);
      zip.abort(err instanceof Error ? err : new Error(String(err)));
      throw err;
    },
  );
  return { output: zip.output, done };
}
