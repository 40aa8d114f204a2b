import type { ServerResponse } from "node:http";
import { Transform } from "node:stream";
import { EngineError } from "../errors.ts";
import { stripInvisibleControls } from "#common/file-names.ts";
import { processStreaming, type StreamingActivity } from "../media/streaming-activity.ts";
import type { PlanOutput } from "./run-plan.ts";

/**
 * The runtime around one download: progress (for the SSE endpoint), the server-wide concurrency
 * limit, per-IP fair use, the Content-Disposition header, and the one place where a plan's
 * output meets the HTTP response (the stream contract: client gone → destroy the source;
 * error after headers → destroy the socket; never end a truncated file cleanly).
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

export interface Admission {
  /** per-IP fair use without counting (link creation): throws download.rate_limited when the IP is already at its limit */
  check(ip: string): void;
  /**
   * per-IP fair use: counts one download start, or throws download.rate_limited with Retry-After.
   * Returns a refund for a start that never sent a byte (busy, upstream failure, client gone).
   */
  hit(ip: string): () => void;
  /** a server-wide streaming slot, or download.busy with Retry-After; the release is idempotent */
  acquire(): () => void;
  /**
   * a stream slot for this IP and this link (download id), or download.rate_limited (429) with
   * Retry-After when either already has its maximum of streams running; the release is idempotent
   */
  acquireStream(ip: string, linkId: string): () => void;
  active(): number;
}

/** seconds a client is asked to wait when its IP or link already streams the maximum */
const STREAM_CAP_RETRY_AFTER_SECONDS = 5;

export function createAdmission(opts: {
  maxConcurrent: number;
  perIpPerHour: number;
  /** streams one IP may run at once; 0 disables */
  perIpConcurrent?: number;
  /** streams one download link may run at once (a resume next to a stalled first attempt); 0 disables */
  perLinkConcurrent?: number;
  busyRetryAfterSeconds?: number;
  /** where a streaming slot is counted process-wide as well (default: this process's) */
  activity?: StreamingActivity;
  now?: () => number;
  maxTrackedIps?: number;
}): Admission {
  const now = opts.now ?? Date.now;
  const windowMs = 60 * 60 * 1000;
  const hits = new Map<string, number[]>();
  const maxTracked = opts.maxTrackedIps ?? 100_000;
  const perIpConcurrent = opts.perIpConcurrent ?? 0;
  const perLinkConcurrent = opts.perLinkConcurrent ?? 0;
  const streamsByIp = new Map<string, number>();
  const streamsByLink = new Map<string, number>();
  let active = 0;

  const recent = (ip: string, t: number) => (hits.get(ip) ?? []).filter((x) => x > t - windowMs);
  const refuse = (ip: string, list: number[], t: number): never => {
    const retryAfter = Math.max(1, Math.ceil((list[0]! + windowMs - t) / 1000));
    throw new EngineError("download.rate_limited", { retryAfter, detail: `${ip}: ${list.length} downloads in the last hour` });
  };
  const decrement = (map: Map<string, number>, key: string) => {
    const n = (map.get(key) ?? 1) - 1;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  };

  return {
    check(ip) {
      if (opts.perIpPerHour <= 0) return;
      const t = now();
      const list = recent(ip, t);
      if (list.length >= opts.perIpPerHour) refuse(ip, list, t);
    },
    hit(ip) {
      if (opts.perIpPerHour <= 0) return () => {};
      const t = now();
      const list = recent(ip, t);
      if (list.length >= opts.perIpPerHour) {
        hits.set(ip, list);
        refuse(ip, list, t);
      }
      list.push(t);
      hits.delete(ip); // re-insert: Map order doubles as least-recently-used order
      hits.set(ip, list);
      if (hits.size > maxTracked) {
        const oldest = hits.keys().next().value;
        if (oldest !== undefined) hits.delete(oldest);
      }
      let refunded = false;
      return () => {
        if (refunded) return;
        refunded = true;
        const current = hits.get(ip);
        const i = current?.lastIndexOf(t) ?? -1;
        if (current && i >= 0) current.splice(i, 1);
      };
    },
    acquire() {
      if (active >= opts.maxConcurrent) {
        throw new EngineError("download.busy", { retryAfter: opts.busyRetryAfterSeconds ?? 5, detail: `${active} downloads streaming` });
      }
      active++;
      const ended = (opts.activity ?? processStreaming).begin();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        active--;
        ended();
      };
    },
    acquireStream(ip, linkId) {
      const byIp = streamsByIp.get(ip) ?? 0;
      const byLink = streamsByLink.get(linkId) ?? 0;
      if (perIpConcurrent > 0 && byIp >= perIpConcurrent) {
        throw new EngineError("download.rate_limited", { retryAfter: STREAM_CAP_RETRY_AFTER_SECONDS, detail: `${ip}: ${byIp} streams running` });
      }
      if (perLinkConcurrent > 0 && byLink >= perLinkConcurrent) {
        throw new EngineError("download.rate_limited", { retryAfter: STREAM_CAP_RETRY_AFTER_SECONDS, detail: `${linkId}: ${byLink} streams running` });
      }
      streamsByIp.set(ip, byIp + 1);
      streamsByLink.set(linkId, byLink + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        decrement(streamsByIp, ip);
        decrement(streamsByLink, linkId);
      };
    },
    active: () => active,
  };
}

/** RFC 6266 attachment header: an ASCII fallback plus the exact UTF-8 name in `filename*` (RFC 8187). */
export function contentDisposition(filename: string): string {
  // control characters (header injection) and path separators become "_"; bidi and invisible
  // format controls go, in both the ASCII fallback and the exact name
  const clean =
    Array.from(stripInvisibleControls(filename), (c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === "/" || c === "\\" ? "_" : c))
      .join("")
      .trim() || "download";
  const ascii =
    clean
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^\x20-\x7e]/g, "_")
      .replace(/["%;]/g, "_") || "download";
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface StreamResponseOptions {
  filename: string;
  /** HEAD: headers only */
  headOnly?: boolean;
  onBytes(n: number): void;
  /**
   * Runs when the source has ended, before its last chunk is sent:
   * what it records (a link used up) is in place before the client can see the end and ask
   * again, whichever instance it asks. A failure is the caller's to log; the response still ends.
   */
  beforeEnd?: () => Promise<void>;
  onEnd(state: "done" | "failed" | "aborted", err?: Error): void;
}

/**
 * Sends a plan's output. Headers first (no-store, no proxy buffering), then the body with
 * backpressure (pipe). One idempotent teardown: client disconnect, source error or the end.
 */
export function streamToResponse(res: ServerResponse, out: PlanOutput, opts: StreamResponseOptions): void {
  let ended = false;
  const end = (state: "done" | "failed" | "aborted", err?: Error) => {
    if (ended) return;
    ended = true;
    out.teardown();
    opts.onEnd(state, err);
  };
  res.writeHead(out.status, {
    ...out.headers,
    "content-disposition": contentDisposition(opts.filename),
    "cache-control": "no-store",
    "x-accel-buffering": "no",
    "x-content-type-options": "nosniff",
  });
  if (opts.headOnly) {
    out.body.destroy();
    res.end();
    end("done");
    return;
  }
  out.body.on("data", (chunk: Buffer) => opts.onBytes(chunk.length));
  out.body.once("error", (err) => {
    // Headers are out: the only honest signal left is a broken connection.
    res.destroy(err);
    end("failed", err);
  });
  res.once("finish", () => end("done"));
  res.once("close", () => {
    if (!res.writableFinished) end("aborted");
  });
  if (!opts.beforeEnd) {
    out.body.pipe(res);
    return;
  }
  // The last chunk waits for beforeEnd (with a Content-Length, the last byte is the end). The
  // headers go now: a source that fails while its only chunk is held still shows as a broken
  // download, not as a server that never answered.
  res.flushHeaders();
  out.body.pipe(holdLastChunk(opts.beforeEnd)).pipe(res);
}

/** Passes chunks on one step late, and the last one only after `beforeEnd` has settled. */
function holdLastChunk(beforeEnd: () => Promise<void>): Transform {
  let held: Buffer | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const previous = held;
      held = chunk;
      callback(null, previous);
    },
    flush(callback) {
      beforeEnd()
        .catch(() => {})
        .finally(() => callback(null, held));
    },
  });
}
