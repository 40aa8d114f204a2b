/**
 * A local media origin: serves a folder over HTTP with Range support, like a CDN. Optional
 * per-request delay (the benchmark's "origin adds 50 ms per request") and a request log.
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export interface MediaOrigin {
  origin: string;
  /** paths requested, in order */
  requests: string[];
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".m3u8": "application/vnd.apple.mpegurl",
  ".mpd": "application/dash+xml",
  ".mp4": "video/mp4",
  ".m4s": "video/iso.segment",
  ".m4a": "audio/mp4",
  ".webm": "video/webm",
  ".ts": "video/mp2t",
  ".mp3": "audio/mpeg",
  ".jpg": "image/jpeg",
  ".html": "text/html; charset=utf-8",
};

export async function startMediaOrigin(root: string, opts: { delayMs?: number; contentType?: (file: string) => string | undefined } = {}): Promise<MediaOrigin> {
  const requests: string[] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://origin");
    requests.push(url.pathname);
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    const file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(path.resolve(root))) {
      res.writeHead(403).end();
      return;
    }
    const stat = await fs.stat(file).catch(() => null);
    if (!stat || !stat.isFile()) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const type = opts.contentType?.(file) ?? TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
    const headers: http.OutgoingHttpHeaders = { "content-type": type, "accept-ranges": "bytes", "last-modified": stat.mtime.toUTCString() };
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    if (range && (range[1] || range[2])) {
      let start = range[1] ? Number(range[1]) : stat.size - Number(range[2]);
      let end = range[1] && range[2] ? Number(range[2]) : stat.size - 1;
      start = Math.max(0, start);
      end = Math.min(end, stat.size - 1);
      if (start > end) {
        res.writeHead(416, { "content-range": `bytes */${stat.size}` }).end();
        return;
      }
      res.writeHead(206, { ...headers, "content-range": `bytes ${start}-${end}/${stat.size}`, "content-length": end - start + 1 });
      if (req.method === "HEAD") return void res.end();
      createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { ...headers, "content-length": stat.size });
    if (req.method === "HEAD") return void res.end();
    createReadStream(file).pipe(res);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
