/**
 * A local CDN for the clip tests and the clip bench row: serves a folder with Range support and
 * counts, per file, every byte it hands to a response (read from disk and written: a request cut
 * short counts what was written before the cut, which errs against the engine).
 */
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import path from "node:path";

export interface CountingOrigin {
  origin: string;
  /** bytes sent per path since the last `reset()` */
  bytes(pathname?: string): number;
  /** `path bytes=a-b` of each request since the last `reset()` */
  requests: string[];
  reset(): void;
  /** resolves once no response is being sent (a cut request's last bytes are counted before the next measure) */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = { ".m3u8": "application/vnd.apple.mpegurl", ".mp4": "video/mp4", ".m4a": "audio/mp4", ".webm": "video/webm", ".ts": "video/mp2t" };

export async function startCountingOrigin(root: string): Promise<CountingOrigin> {
  const sent = new Map<string, number>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let sending = 0;
  const server = http.createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://origin").pathname);
    const file = path.join(root, pathname);
    const stat = file.startsWith(path.resolve(root)) ? await fs.stat(file).catch(() => null) : null;
    if (!stat?.isFile()) {
      res.writeHead(404).end();
      return;
    }
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    let start = 0;
    let end = stat.size - 1;
    if (m && (m[1] || m[2])) {
      start = m[1] ? Number(m[1]) : Math.max(0, stat.size - Number(m[2]));
      end = m[1] && m[2] ? Math.min(Number(m[2]), stat.size - 1) : stat.size - 1;
      if (start > end) {
        res.writeHead(416, { "content-range": `bytes */${stat.size}` }).end();
        return;
      }
    }
    requests.push(`${pathname} ${req.method} ${m ? `bytes=${start}-${end}` : "whole"}`);
    const headers: http.OutgoingHttpHeaders = { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream", "accept-ranges": "bytes", "content-length": end - start + 1 };
    if (m) headers["content-range"] = `bytes ${start}-${end}/${stat.size}`;
    res.writeHead(m ? 206 : 200, headers);
    if (req.method === "HEAD") return void res.end();
    const body = createReadStream(file, { start, end, highWaterMark: 64 * 1024 });
    body.on("data", (chunk) => sent.set(pathname, (sent.get(pathname) ?? 0) + chunk.length));
    sending++;
    res.once("close", () => {
      sending--;
      body.destroy();
    });
    body.pipe(res);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: (pathname) => (pathname !== undefined ? (sent.get(pathname) ?? 0) : [...sent.values()].reduce((a, b) => a + b, 0)),
    requests,
    async settled() {
      for (let waited = 0; sending > 0 && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    },
    reset() {
      sent.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
