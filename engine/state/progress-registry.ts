import { EngineError } from "../errors.ts";

/**
 * In-process download progress (what the SSE endpoint follows): the synchronous registry behind
 * memoryProgress (memory.ts), which gives it the ProgressStore interface of types.ts.
 */

export type DownloadState = "queued" | "streaming" | "done" | "failed" | "aborted";

export interface DownloadProgress {
  bytes: number;
  total: number | null;
  state: DownloadState;
}

type Listener = (p: DownloadProgress) => void;

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
  finish(id: string, state: Exclude<DownloadState, "queued" | "streaming">): void;
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
    const snapshot = { ...entry.progress };
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
    get: (id) => (entries.has(id) ? { ...entries.get(id)!.progress } : undefined),
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
    finish(id, state) {
      const e = entries.get(id);
      if (!e) return;
      e.progress.state = state;
      e.touched = now();
      emit(e);
    },
    subscribe(id, fn) {
      const e = entries.get(id);
      if (!e) throw new EngineError("download.not_found");
      e.listeners.add(fn);
      fn({ ...e.progress });
      return () => {
        e.listeners.delete(fn);
      };
    },
    size: () => entries.size,
  };
}
