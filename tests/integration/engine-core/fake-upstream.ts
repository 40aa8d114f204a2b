import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { startServer, type TestServer } from "./helpers.ts";

/**
 * A local fake of a media CDN: serves byte buffers with Range support, and can misbehave on
 * purpose (cut a response midway, refuse expired tokens with 403, ignore Range).
 */
export interface FakeFile {
  data: Buffer;
  type: string;
  /** cut the next N responses that include byte offset `at` after sending up to `at` */
  cutAt?: { at: number; times: number };
  /** tokens accepted in ?token=; others get 403 */
  validTokens?: Set<string>;
  ignoreRange?: boolean;
  /** delay per response in ms */
  delayMs?: number;
  /** serve only the first `failAfter` bytes then destroy the socket, forever */
  failAfter?: number;
}

export interface FakeUpstream extends TestServer {
  files: Map<string, FakeFile>;
  /** bytes written to sockets so far */
  sent: () => number;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const files = new Map<string, FakeFile>();
  let sent = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    const file = files.get(url.pathname);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    if (file.validTokens && !file.validTokens.has(url.searchParams.get("token") ?? "")) {
      res.writeHead(403).end("expired");
      return;
    }
    const size = file.data.length;
    let start = 0;
    let end = size - 1;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    if (range && !file.ignoreRange) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size) {
        res.writeHead(416, { "content-range": `bytes */${size}` }).end();
        return;
      }
      status = 206;
    }
    const headers: Record<string, string | number> = {
      "content-type": file.type,
      "content-length": end - start + 1,
      "accept-ranges": "bytes",
    };
    if (status === 206) headers["content-range"] = `bytes ${start}-${end}/${size}`;
    const send = () => {
      res.writeHead(status, headers);
      if (req.method === "HEAD") {
        res.end();
        return;
      }
      const cut = file.cutAt;
      let stopAt: number | null = null;
      if (cut && cut.times > 0 && cut.at > start && cut.at <= end) {
        cut.times--;
        stopAt = cut.at;
      }
      if (file.failAfter !== undefined && file.failAfter <= end) stopAt = Math.max(start, file.failAfter);
      if (stopAt !== null) {
        const part = file.data.subarray(start, stopAt);
        sent += part.length;
        res.write(part, () => setTimeout(() => res.socket?.destroy(), 5));
        return;
      }
      const body = file.data.subarray(start, end + 1);
      writeWithBackpressure(res, body, (n) => (sent += n));
    };
    if (file.delayMs) setTimeout(send, file.delayMs);
    else send();
  };
  const server = await startServer(handler);
  return Object.assign(server, { files, sent: () => sent });
}

function writeWithBackpressure(res: ServerResponse, body: Buffer, count: (n: number) => void): void {
  const piece = 64 * 1024;
  let offset = 0;
  const pump = () => {
    while (offset < body.length) {
      const part = body.subarray(offset, offset + piece);
      offset += part.length;
      count(part.length);
      if (!res.write(part)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  res.on("close", () => res.removeListener("drain", pump));
  pump();
}

export function randomMedia(size: number): Buffer {
  return randomBytes(size);
}
