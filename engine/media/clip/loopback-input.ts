/**
 * A seekable input for ffmpeg that the engine itself serves (docs/decisions/061): an HTTP server
 * on 127.0.0.1, one per clipped input, answering one unguessable path with the bytes of one
 * upstream stream. Every Range ffmpeg asks for is fetched through the engine's own readers (the
 * guarded outbound door, the stream's headers and cookies, 403 recovery), in small chunks, so
 * ffmpeg's demuxers can read the index (moov, sidx, Cues) and then seek straight to the samples a
 * clip needs, while ffmpeg itself still reaches nothing but us. A request that ffmpeg abandons
 * (it seeks elsewhere) aborts its upstream reads at once.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Readable } from "node:stream";

/** One opened read of the upstream: its body, and the whole resource's length once an answer told it. */
export interface LoopbackRead {
  body: Readable;
  total: number | null;
}

export interface LoopbackOptions {
  /** reads `[start, end]` (inclusive; end absent = to the end) of the one upstream stream */
  read(range: { start: number; end?: number }, signal: AbortSignal): Promise<LoopbackRead>;
  /** the stream's length when resolve knew it */
  total: number | null;
  /** closes the server and every read when aborted */
  signal: AbortSignal;
  /** a read that failed: the run fails with it (an upstream refusal is worth more than ffmpeg's "I/O error") */
  onFailure(err: Error): void;
}

export interface LoopbackInput {
  /** what ffmpeg opens: `http://127.0.0.1:<port>/<token>` */
  url: string;
  /** requests ffmpeg made (each a seek), for logs and tests */
  requests(): number;
  close(): void;
}

const TOKEN_BYTES = 24;
/**
 * The most one answer carries. ffmpeg asks for everything from an offset on (`bytes=N-`) and reads
 * as it needs; answering a window at a time (a shorter 206, after which ffmpeg asks for the next
 * offset itself) keeps what a seek abandons to one window, at the origin and in the loopback
 * socket's buffers alike. Reads that follow on from the previous answer get a window half as large
 * again, up to the largest, so a long run of samples costs few requests while the last window,
 * which the clip's end leaves partly unread, stays under a third of what was read in a row.
 */
export const WINDOW_BYTES = { first: 16 * 1024, growth: 1.25, largest: 2 * 1024 * 1024 } as const;

function parseRange(header: string | undefined): { start: number; end?: number } | null {
  if (!header) return { start: 0 };
  const m = /^bytes=(\d+)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] ? Number(m[2]) : undefined;
  if (!Number.isSafeInteger(start) || (end !== undefined && (!Number.isSafeInteger(end) || end < start))) return null;
  return { start, end };
}

export async function serveLoopbackInput(opts: LoopbackOptions): Promise<LoopbackInput> {
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  const expected = Buffer.from(`/${token}`);
  let total = opts.total;
  let requests = 0;
  /** where the last answer ended, and its window: a request starting there reads on */
  let lastEnd = Number.NaN;
  let window: number = WINDOW_BYTES.first;
  const sockets = new Set<Socket>();
  const reads = new Set<AbortController>();

  const isOurs = (req: IncomingMessage) => {
    const got = Buffer.from(req.url ?? "");
    return got.length === expected.length && timingSafeEqual(got, expected);
  };

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isOurs(req) || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { connection: "close" }).end();
      return;
    }
    requests++;
    const range = parseRange(req.headers.range);
    if (!range || (total !== null && range.start >= total)) {
      res.writeHead(416, { "content-range": `bytes */${total ?? "*"}` }).end();
      return;
    }
    const controller = new AbortController();
    reads.add(controller);
    const stop = () => controller.abort();
    res.once("close", stop);
    try {
      window = range.start === lastEnd + 1 ? Math.min(Math.round(window * WINDOW_BYTES.growth), WINDOW_BYTES.largest) : WINDOW_BYTES.first;
      const asked = range.end ?? Number.MAX_SAFE_INTEGER;
      const end = Math.min(asked, range.start + window - 1, total !== null ? total - 1 : Number.MAX_SAFE_INTEGER);
      lastEnd = end;
      const read = await opts.read({ start: range.start, end }, controller.signal);
      total ??= read.total;
      if (controller.signal.aborted) {
        read.body.destroy();
        return;
      }
      const last = total !== null ? Math.min(end, total - 1) : end;
      const headers: http.OutgoingHttpHeaders = { "content-type": "application/octet-stream", "accept-ranges": "bytes" };
      headers["content-length"] = String(last - range.start + 1);
      headers["content-range"] = `bytes ${range.start}-${last}/${total ?? "*"}`;
      res.writeHead(206, headers);
      if (req.method === "HEAD") {
        read.body.destroy();
        res.end();
        return;
      }
      controller.signal.addEventListener("abort", () => read.body.destroy(), { once: true });
      read.body.on("error", (err: Error) => {
        // ffmpeg left (a seek): not a failure of the download
        if (!controller.signal.aborted) opts.onFailure(err);
        res.destroy();
      });
      read.body.pipe(res);
    } catch (err) {
      if (!controller.signal.aborted) opts.onFailure(err as Error);
      if (!res.headersSent) res.writeHead(502, { connection: "close" }).end();
      else res.destroy();
    } finally {
      res.once("close", () => reads.delete(controller));
    }
  }

  const server = http.createServer((req, res) => void answer(req, res));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  // only this machine, and only the path nobody else knows
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    for (const read of reads) read.abort();
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  if (opts.signal.aborted) close();
  else opts.signal.addEventListener("abort", close, { once: true });
  return { url: `http://127.0.0.1:${port}/${token}`, requests: () => requests, close };
}
