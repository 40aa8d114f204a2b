import type { ServerResponse } from "node:http";
import { type Readable, Transform } from "node:stream";
import { stripInvisibleControls } from "#common/file-names.ts";
import { giveBack } from "../outbound/read-buffers.ts";
import type { PlanOutput } from "../stream/run-plan.ts";

/**
 * The one place where a plan's output meets the HTTP response, with its Content-Disposition
 * header. The stream contract: client gone → destroy the source; error after headers → destroy
 * the socket; never end a truncated file cleanly.
 */

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
    pump(out.body, res);
    return;
  }
  // The last chunk waits for beforeEnd (with a Content-Length, the last byte is the end). The
  // headers go now: a source that fails while its only chunk is held still shows as a broken
  // download, not as a server that never answered.
  res.flushHeaders();
  pump(out.body.pipe(holdLastChunk(opts.beforeEnd)), res);
}

/**
 * `source.pipe(res)` that also hands each chunk's memory back once the socket has taken it: a
 * relayed chunk is a view of a recycled socket read (engine/outbound/read-buffers.ts), and only
 * the writer knows when its bytes are out. A failed write keeps its chunk (left to the collector).
 */
function pump(source: Readable, res: ServerResponse): void {
  const resume = () => source.resume();
  source.on("data", (chunk: Buffer) => {
    if (!res.write(chunk, (err) => err || giveBack(chunk))) {
      source.pause();
      res.once("drain", resume);
    }
  });
  source.once("end", () => res.end());
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
