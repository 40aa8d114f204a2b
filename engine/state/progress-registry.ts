import { EngineError } from "../errors.ts";

/**
 * In-process download progress (what the SSE endpoint follows): the synchronous registry behind
 * memoryProgress (memory.ts), which gives it the ProgressStore interface of types.ts.
 */

export type DownloadState = "queued" | "streaming" | "done" | "failed" | "aborted";

/** One file of a ZIP (a bulk download or a playlist), as its progress events show it. */
export interface FileProgress {
  status: "pending" | "running" | "done" | "failed";
  /** the video's title once it is known */
  title: string | null;
  /** the catalogue's sentence, on a failed file only */
  error?: string;
}

/** A ZIP's files: how many are done or failed, and each one's state in the archive's order. */
export interface FilesProgress {
  total: number;
  done: number;
  failed: number;
  items: FileProgress[];
}

/** Why a download failed, as the API answers errors: the catalogue's code and its sentence (a failed state only). */
export interface ProgressError {
  code: string;
  message: string;
}

export interface DownloadProgress {
  bytes: number;
  total: number | null;
  state: DownloadState;
  /** a ZIP's files (absent for a single file) */
  files?: FilesProgress;
  /** why it failed, when the engine knows (state "failed" only) */
  error?: ProgressError;
}

type Listener = (p: DownloadProgress) => void;

/** a copy a listener may keep: later changes to the entry do not reach it */
function snapshotOf(p: DownloadProgress): DownloadProgress {
  return p.files ? { ...p, files: { ...p.files, items: p.files.items.map((i) => ({ ...i })) } } : { ...p };
}

interface Entry {
  progress: DownloadProgress;
  listeners: Set<Listener>;
  touched: number;
  lastEmit: number;
  timer: NodeJS.Timeout | null;
}

export interface ProgressRegistry {
  create(id: string, total: number | null): void;
  has(id: string): boolean;
  get(id: string): DownloadProgress | undefined;
  /** a new stream of this download starts (a retry or a range request restarts the count) */
  start(id: string, total: number | null, offset?: number): void;
  addBytes(id: string, n: number): void;
  /** a ZIP's files changed (a file started, ended or failed): subscribers hear it at once */
  setFiles(id: string, files: FilesProgress): void;
  finish(id: string, state: Exclude<DownloadState, "queued" | "streaming">, error?: ProgressError): void;
  /** calls `fn` at once with the current progress, then on changes (bytes at most every `intervalMs`) */
  subscribe(id: string, fn: Listener): () => void;
  /** active entries (tests, metrics) */
  size(): number;
}

export function createProgressRegistry(opts: { intervalMs?: number; retainMs?: number; now?: () => number } = {}): ProgressRegistry {
  const intervalMs = opts.intervalMs ?? 250;
  const retainMs = opts.retainMs ?? 30 * 60 * 1000;
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const emit = (entry: Entry) => {
    entry.lastEmit = now();
    if (entry.timer) {
      clearTimeout(entry.timer);
      entry.timer = null;
    }
    const snapshot = snapshotOf(entry.progress);
    for (const fn of entry.listeners) fn(snapshot);
  };

  const prune = () => {
    const limit = now() - retainMs;
    for (const [id, e] of entries) if (e.touched < limit && e.listeners.size === 0) entries.delete(id);
  };

  const ensure = (id: string): Entry => {
    let e = entries.get(id);
    if (!e) {
      prune();
      e = { progress: { bytes: 0, total: null, state: "queued" }, listeners: new Set(), touched: now(), lastEmit: 0, timer: null };
      entries.set(id, e);
    }
    return e;
  };

  return {
    create(id, total) {
      const e = ensure(id);
      e.progress = { bytes: 0, total, state: "queued" };
    },
    has: (id) => entries.has(id),
    get: (id) => (entries.has(id) ? snapshotOf(entries.get(id)!.progress) : undefined),
    start(id, total, offset = 0) {
      const e = ensure(id);
      e.progress = { bytes: offset, total, state: "streaming" };
      e.touched = now();
      emit(e);
    },
    addBytes(id, n) {
      const e = entries.get(id);
      if (!e) return;
      e.progress.bytes += n;
      e.touched = now();
      if (now() - e.lastEmit >= intervalMs) emit(e);
      else if (!e.timer && e.listeners.size > 0) {
        e.timer = setTimeout(() => emit(e), intervalMs);
        e.timer.unref();
      }
    },
    setFiles(id, files) {
      const e = entries.get(id);
      if (!e) return;
      e.progress.files = files;
      e.touched = now();
      emit(e);
    },
    finish(id, state, error) {
      const e = entries.get(id);
      if (!e) return;
      e.progress.state = state;
      if (state === "failed" && error) e.progress.error = error;
      else delete e.progress.error;
      e.touched = now();
      emit(e);
    },
    subscribe(id, fn) {
      const e = entries.get(id);
      if (!e) throw new EngineError("download.not_found");
      e.listeners.add(fn);
      fn(snapshotOf(e.progress));
      return () => {
        e.listeners.delete(fn);
      };
    },
    size: () => entries.size,
  };
}
