import { ApiError, type DownloadTicket, progressUrl, requestDownload } from "./api-client.ts";
import type { FileProgress, FilesProgress } from "#engine/index.ts";
import { saveWithBrowser } from "./save-file.ts";
import { pickMediaOptions, type MediaOptions } from "./media-options.ts";

export type { FileProgress, FilesProgress } from "#engine/index.ts";
type FileStatus = FileProgress["status"];

/** One event of the progress stream (DESIGN §5: bytes sent, total, state). */
export interface ProgressEvent {
  bytes: number;
  total: number | null;
  state: string;
  /** the engine's wording when the state is a failure */
  message?: string;
  /** the engine's error code when the state is a failure and the engine knows why (e.g. `video.bot_check`, `upstream.refused`) */
  code?: string;
  /** a ZIP's files; absent for a single file */
  files?: FilesProgress;
}

const DONE_STATES = new Set(["done", "complete", "completed", "finished"]);
const FAILED_STATES = new Set(["error", "failed"]);
const CANCELLED_STATES = new Set(["aborted", "cancelled", "canceled"]);

export const DOWNLOAD_FAILED_MESSAGE = "The download stopped before the file was complete. Please try again.";
export const DOWNLOAD_CANCELLED_MESSAGE = "The download was cancelled.";

export type ProgressSubscribe = (id: string, handlers: { onEvent: (p: ProgressEvent) => void; onUnavailable: () => void }) => () => void;

const FILE_STATUSES = new Set<string>(["pending", "running", "done", "failed"]);
const count = (v: unknown): number | null => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null);

/** A ZIP's `files` field, or undefined when there is none (or it is not one we can read). */
function parseFiles(raw: unknown): FilesProgress | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const r = raw as Record<string, unknown>;
  if (!Array.isArray(r.items)) return undefined;
  const items: FileProgress[] = r.items.map((item: unknown) => {
    const i = (item && typeof item === "object" ? item : {}) as Record<string, unknown>;
    const status = typeof i.status === "string" && FILE_STATUSES.has(i.status) ? (i.status as FileStatus) : "pending";
    const title = typeof i.title === "string" && i.title !== "" ? i.title : null;
    return status === "failed" && typeof i.error === "string" ? { status, title, error: i.error } : { status, title };
  });
  return {
    total: count(r.total) ?? items.length,
    done: count(r.done) ?? items.filter((i) => i.status === "done").length,
    failed: count(r.failed) ?? items.filter((i) => i.status === "failed").length,
    items,
  };
}

/** Parse one SSE data payload; null for anything that is not a progress event. */
export function parseProgress(data: string): ProgressEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    // Comments and keep-alives are not JSON: nothing to report.
    return null;
  }
  if (!raw || typeof raw !== "object") return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.state !== "string") return null;
  const bytes = typeof r.bytes === "number" && Number.isFinite(r.bytes) ? r.bytes : 0;
  const total = typeof r.total === "number" && Number.isFinite(r.total) && r.total > 0 ? r.total : null;
  const message =
    typeof r.message === "string"
      ? r.message
      : typeof (r.error as { message?: unknown } | undefined)?.message === "string"
        ? ((r.error as { message: string }).message)
        : undefined;
  const code = typeof (r.error as { code?: unknown } | undefined)?.code === "string" ? (r.error as { code: string }).code : undefined;
  const files = parseFiles(r.files);
  return { bytes, total, state: r.state, message, ...(code ? { code } : {}), ...(files ? { files } : {}) };
}

/** The progress endpoint through the browser's EventSource (reconnects are ours to decide). */
export const subscribeWithEventSource: ProgressSubscribe = (id, { onEvent, onUnavailable }) => {
  const source = new EventSource(progressUrl(id));
  let closed = false;
  const handle = (e: MessageEvent) => {
    const p = parseProgress(String(e.data));
    if (p) onEvent(p);
  };
  source.onmessage = handle;
  source.addEventListener("progress", handle as EventListener);
  source.onerror = () => {
    if (closed) return;
    // The stream ended or never opened: stop the automatic reconnects and let the caller decide.
    closed = true;
    source.close();
    onUnavailable();
  };
  return () => {
    closed = true;
    source.close();
  };
};

/** A download whose stream never starts (or stops moving) this long is reported as failed. */
export const STALL_TIMEOUT_MS = 60_000;

export type DownloadOutcome = { ticket: DownloadTicket; tracked: boolean };

export interface RunDownloadDeps {
  request?: typeof requestDownload;
  subscribe?: ProgressSubscribe;
  save?: (url: string, filename: string) => void;
  stallTimeoutMs?: number;
}

/**
 * One attempt: ask the API for a signed link, let the browser save it, follow the progress stream
 * until the server reports the file complete (see `followDownload`).
 */
export async function runDownload(
  input: {
    url: string;
    format: string;
    language?: string;
    profile?: string;
    onProgress?: (p: ProgressEvent) => void;
    onTicket?: (t: DownloadTicket) => void;
    signal?: AbortSignal;
  } & MediaOptions,
  deps: RunDownloadDeps = {},
): Promise<DownloadOutcome> {
  const request = deps.request ?? requestDownload;
  // the media options (tags, clip, audio track, loudness, SponsorBlock) go with a profile too: requestDownload sends only those that are on
  const media = pickMediaOptions(input);
  const ticket = await request(
    input.url,
    input.format,
    input.profile ? { signal: input.signal, profile: input.profile, ...media } : input.language ? { signal: input.signal, language: input.language, ...media } : { signal: input.signal, ...media },
  );
  input.onTicket?.(ticket);
  return followDownload(ticket, input, deps);
}

/**
 * Let the browser save a ticket's file (one video or a ZIP) and follow its progress stream until
 * the server reports it complete. Rejects with an ApiError when the server reports a failure (so
 * the caller can retry), or "download.cancelled" when the visitor cancelled it. When the progress
 * stream is not reachable, the browser still owns the download: the outcome says it was not tracked.
 */
export function followDownload(
  ticket: DownloadTicket,
  input: { onProgress?: (p: ProgressEvent) => void; signal?: AbortSignal },
  deps: Omit<RunDownloadDeps, "request"> = {},
): Promise<DownloadOutcome> {
  const subscribe = deps.subscribe ?? subscribeWithEventSource;
  const save = deps.save ?? saveWithBrowser;

  return new Promise<DownloadOutcome>((resolve, reject) => {
    let settled = false;
    let sawEvent = false;
    let unsubscribe: () => void = () => {};
    let stallTimer: ReturnType<typeof setTimeout> | null = null;
    const stallMs = deps.stallTimeoutMs ?? STALL_TIMEOUT_MS;
    const armStall = () => {
      if (stallTimer) clearTimeout(stallTimer);
      stallTimer = setTimeout(() => finish(() => reject(new ApiError("download.stalled", DOWNLOAD_FAILED_MESSAGE, 0))), stallMs);
    };
    let lastBytes = -1;
    let lastState = "";
    let lastFiles = "";
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      if (stallTimer) clearTimeout(stallTimer);
      unsubscribe();
      input.signal?.removeEventListener("abort", onAbort);
      fn();
    };
    const onAbort = () => finish(() => reject(input.signal?.reason));
    const stop = subscribe(ticket.id, {
      onEvent: (p) => {
        sawEvent = true;
        // a ZIP moving on to its next link counts as movement too, before that file's bytes flow
        const files = p.files ? p.files.items.map((i) => i.status).join() : "";
        if (p.bytes !== lastBytes || p.state !== lastState || files !== lastFiles) armStall();
        lastBytes = p.bytes;
        lastState = p.state;
        lastFiles = files;
        input.onProgress?.(p);
        if (DONE_STATES.has(p.state)) finish(() => resolve({ ticket, tracked: true }));
        // the cause the engine knows (a bot wall, a region, a refusal…) in its words, not a generic failure
        else if (FAILED_STATES.has(p.state)) finish(() => reject(new ApiError(p.code ?? "download.failed", p.message || DOWNLOAD_FAILED_MESSAGE, 500)));
        else if (CANCELLED_STATES.has(p.state)) finish(() => reject(new ApiError("download.cancelled", DOWNLOAD_CANCELLED_MESSAGE, 499)));
      },
      onUnavailable: () => {
        // Lost after events arrived: the server went away mid-file, which is a failed download.
        if (sawEvent) finish(() => reject(new ApiError("download.failed", DOWNLOAD_FAILED_MESSAGE, 0)));
        else finish(() => resolve({ ticket, tracked: false }));
      },
    });
    if (settled) stop();
    else {
      unsubscribe = stop;
      armStall();
    }
    input.signal?.addEventListener("abort", onAbort, { once: true });
    // Subscribed first, so even a tiny file's whole progress is seen.
    save(ticket.downloadUrl, ticket.filename);
  });
}
