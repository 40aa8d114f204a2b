import { Readable } from "node:stream";
import type { Logger } from "pino";
import { EngineError, isEngineError } from "../errors.ts";
import type { OutboundOpen, OutboundResponse } from "./outbound-fetch.ts";

/**
 * A Readable over one direct upstream URL, fetched in bounded Range chunks. Why chunks: platform
 * CDNs throttle or cut long single requests, and a cut costs at most one chunk. Memory stays
 * bounded (one socket buffer plus the Readable's high-water mark, whatever the file size);
 * a failed chunk resumes at the exact byte offset; a 403 (expired URL) asks the caller for a
 * fresh URL and continues where it stopped.
 */
export interface RangedReaderOptions {
  open: OutboundOpen;
  url: string;
  chunkBytes: number;
  /** first byte (default 0) */
  start?: number;
  /** last byte, inclusive (default: the end of the resource) */
  end?: number;
  /** re-resolve the media and return a fresh URL for the same stream (on 403) */
  refresh?: () => Promise<string>;
  /** attempts per chunk after a cut or network error (default 4); progress resets the count */
  maxRetries?: number;
  retryDelayMs?: number;
  /** extra headers for every request */
  headers?: Record<string, string>;
  logger?: Logger;
  /** aborts every request of this reader */
  signal?: AbortSignal;
}

export interface RangedSource {
  stream: Readable;
  /** total length of the resource, when the upstream said */
  total: number | null;
  /** bytes this reader will deliver (end - start + 1), when known */
  length: number | null;
  contentType: string | null;
}

const CONTENT_RANGE = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i;
const MAX_REFRESHES = 3;

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new EngineError("download.failed", { detail: "aborted" }));
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new EngineError("download.failed", { detail: "aborted" }));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Opens the first chunk right away (so an error surfaces before response headers are sent) and
 * returns a stream that fetches the rest on demand.
 */
export async function openRangedSource(opts: RangedReaderOptions): Promise<RangedSource> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(opts.signal?.reason);
  if (opts.signal?.aborted) controller.abort(opts.signal.reason);
  opts.signal?.addEventListener("abort", onOuterAbort, { once: true });

  const chunkBytes = Math.max(1024, Math.floor(opts.chunkBytes));
  const maxRetries = opts.maxRetries ?? 4;
  const retryDelayMs = opts.retryDelayMs ?? 200;
  const log = opts.logger;
  let url = opts.url;
  let pos = opts.start ?? 0;
  let end: number | null = opts.end ?? null;
  let total: number | null = null;
  let refreshes = 0;
  let contentType: string | null = null;

  /** Requests [pos, chunkEnd]; handles 403 refresh; returns the response and how many bytes it should carry. */
  async function request(): Promise<{ res: OutboundResponse; expect: number | null; skip: number }> {
    for (;;) {
      const chunkEnd = end !== null ? Math.min(end, pos + chunkBytes - 1) : pos + chunkBytes - 1;
      const res = await opts.open(url, {
        headers: { ...opts.headers, range: `bytes=${pos}-${chunkEnd}` },
        signal: controller.signal,
      });
      if (res.status === 403 && opts.refresh && refreshes < MAX_REFRESHES) {
        res.body.resume();
        refreshes++;
        log?.info({ pos, refreshes }, "upstream refused (403): re-resolving the stream URL");
        url = await opts.refresh();
        continue;
      }
      if (res.status === 206) {
        const m = CONTENT_RANGE.exec(res.headers.get("content-range") ?? "");
        if (!m || Number(m[1]) !== pos) {
          res.body.destroy();
          throw new EngineError("upstream.fetch_failed", { detail: `bad Content-Range ${res.headers.get("content-range")} for offset ${pos}` });
        }
        if (m[3] !== "*") total = Number(m[3]);
        if (end === null && total !== null) end = total - 1;
        contentType ??= res.headers.get("content-type");
        return { res, expect: Number(m[2]) - pos + 1, skip: 0 };
      }
      if (res.status === 200) {
        // The upstream ignores Range: the body is the whole resource; skip to our offset.
        const length = Number(res.headers.get("content-length"));
        if (Number.isFinite(length) && res.headers.has("content-length")) {
          total = length;
          if (end === null || end > total - 1) end = total - 1;
        }
        contentType ??= res.headers.get("content-type");
        return { res, expect: end !== null ? end - pos + 1 : null, skip: pos };
      }
      res.body.resume();
      if (res.status === 416 && (total === null || pos >= total)) {
        return { res, expect: 0, skip: 0 };
      }
      if (res.status === 403 || res.status === 404 || res.status === 410) {
        throw new EngineError("upstream.expired", { detail: `upstream answered ${res.status} at offset ${pos}` });
      }
      throw new EngineError("upstream.fetch_failed", { detail: `upstream answered ${res.status} at offset ${pos}` });
    }
  }

  let first: Awaited<ReturnType<typeof request>>;
  try {
    first = await request();
  } catch (err) {
    opts.signal?.removeEventListener("abort", onOuterAbort);
    throw err;
  }
  const startPos = opts.start ?? 0;

  /**
   * Push-based on purpose: upstream 'data' goes straight into the Readable and the upstream
   * socket is paused whenever the consumer's buffer is full. (An async-generator version was
   * several times slower on fast links.)
   */
  type Chunk = Awaited<ReturnType<typeof request>>;
  let current: Chunk | null = null;
  let skip = 0;
  let received = 0;
  let failures = 0;
  let busy = false; // a request or a retry delay is in progress
  let finished = false;

  const stream = new Readable({
    highWaterMark: 1024 * 1024,
    read() {
      if (current) current.res.body.resume();
      else if (!busy && !finished) next();
    },
    destroy(err, cb) {
      finished = true;
      opts.signal?.removeEventListener("abort", onOuterAbort);
      controller.abort();
      if (current) detach(true);
      cb(err);
    },
  });

  const onData = (piece: Buffer) => {
    let buf = piece;
    if (skip > 0) {
      if (buf.length <= skip) {
        skip -= buf.length;
        return;
      }
      buf = buf.subarray(skip);
      skip = 0;
    }
    if (end !== null && pos + buf.length > end + 1) buf = buf.subarray(0, Math.max(0, end + 1 - pos));
    if (buf.length > 0) {
      pos += buf.length;
      received += buf.length;
      failures = 0;
      if (!stream.push(buf) && current) current.res.body.pause();
    }
    if (end !== null && pos > end) {
      // everything wanted has arrived (an upstream ignoring Range may have more): stop here
      detach(true);
      finish();
    }
  };
  const onEnd = () => {
    const chunk = current;
    detach(false);
    if (!chunk || finished) return;
    if (chunk.expect !== null && received < chunk.expect) {
      retry(new EngineError("upstream.fetch_failed", { detail: `chunk at ${pos} ended early` }), "upstream chunk ended early; resuming at its byte offset");
      return;
    }
    if ((end === null && chunk.expect === null) || chunk.expect === 0 || (end !== null && pos > end)) {
      finish();
      return;
    }
    next();
  };
  const onError = (err: Error) => {
    detach(true);
    if (finished) return;
    if (controller.signal.aborted) {
      stream.destroy(err);
      return;
    }
    retry(err, "upstream chunk was cut; resuming at its byte offset");
  };

  function attach(chunk: Chunk): void {
    current = chunk;
    skip = chunk.skip;
    received = 0;
    const body = chunk.res.body;
    // late errors from a body we already let go of must not crash the process
    body.on("error", () => undefined);
    body.on("data", onData);
    body.once("end", onEnd);
    body.once("error", onError);
    // A socket closed without 'end' (and without an error) is a cut too.
    body.once("close", () => {
      if (current === chunk && !body.readableEnded) onError(new Error("upstream closed the connection"));
    });
  }

  function detach(destroyBody: boolean): void {
    const chunk = current;
    current = null;
    if (!chunk) return;
    const body = chunk.res.body;
    body.off("data", onData);
    body.off("end", onEnd);
    body.off("error", onError);
    if (destroyBody && !body.destroyed && !body.readableEnded) body.destroy();
  }

  function finish(): void {
    if (finished) return;
    finished = true;
    stream.push(null);
  }

  function fail(err: unknown): void {
    finished = true;
    stream.destroy(isEngineError(err) ? err : new EngineError("upstream.fetch_failed", { cause: err, detail: `chunk at ${pos}: ${(err as Error)?.message}` }));
  }

  function retry(err: unknown, message: string): void {
    if (!retryableError(err) || failures >= maxRetries) {
      fail(err);
      return;
    }
    failures++;
    log?.warn({ pos, failures, err: (err as Error)?.message }, message);
    busy = true;
    delay(retryDelayMs * 2 ** (failures - 1), controller.signal).then(
      () => {
        busy = false;
        next();
      },
      (e: unknown) => {
        busy = false;
        fail(e);
      },
    );
  }

  function next(): void {
    if (finished || busy || current) return;
    if (end !== null && pos > end) {
      finish();
      return;
    }
    busy = true;
    request().then(
      (chunk) => {
        busy = false;
        if (finished) {
          chunk.res.body.destroy();
          return;
        }
        attach(chunk);
      },
      (err: unknown) => {
        busy = false;
        if (finished) return;
        if (controller.signal.aborted) fail(err);
        else retry(err, "upstream chunk failed to open; retrying");
      },
    );
  }

  attach(first);
  const length = end !== null ? end - startPos + 1 : null;
  return { stream, total, length, contentType };
}

function retryableError(err: unknown): boolean {
  if (!isEngineError(err)) return true;
  return err.code === "upstream.fetch_failed" || err.code === "upstream.timeout";
}
