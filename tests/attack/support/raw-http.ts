import { connect } from "node:net";

/**
 * HTTP/1.1 over a plain socket, so a test can send what a well-behaved client never would: no
 * Host header, an invalid one, odd methods, raw bytes, bodies without Content-Length, bodies
 * larger than the server accepts. The answer is read incrementally; a request is done as soon as
 * a complete response is in, even when the server stops reading the body early (a 413).
 */
export type Header = [name: string, value: string];

export interface RawRequest {
  port: number;
  method: string;
  /** the request target exactly as sent (percent escapes are not touched) */
  target: string;
  /** sent in order; Host is added unless `noHost` or a Host header is given */
  headers?: Header[];
  noHost?: boolean;
  /** a body sent with Content-Length (unless a Content-Length header is given) */
  body?: Buffer | string;
  /** a body sent with Transfer-Encoding: chunked, produced piece by piece */
  chunks?: Iterable<Buffer> | AsyncIterable<Buffer>;
  timeoutMs?: number;
}

export interface RawResponse {
  kind: "response";
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** time until the status line and headers arrived */
  msToHeaders: number;
  ms: number;
}
export interface RawFailure {
  /** timeout: no complete answer in time; closed: the connection ended without any answer */
  kind: "timeout" | "closed";
  detail: string;
  ms: number;
  /** a status line seen before the failure, if any */
  partialStatus?: number;
}
export type RawResult = RawResponse | RawFailure;

export function bodyText(res: RawResult): string {
  return res.kind === "response" ? res.body.toString("utf8") : "";
}

/** A one-line description for failure reports: the request and what came back. */
export function describe(req: Pick<RawRequest, "method" | "target" | "headers" | "noHost"> & { bodyPreview?: string }, res: RawResult): string {
  const hdrs = (req.headers ?? []).map(([k, v]) => `${k}: ${JSON.stringify(v).slice(1, -1).slice(0, 120)}`).join(" | ");
  const sent = `${req.method} ${JSON.stringify(req.target).slice(1, -1).slice(0, 300)}${req.noHost ? " (no Host)" : ""}${hdrs ? ` [${hdrs}]` : ""}${
    req.bodyPreview ? ` body=${JSON.stringify(req.bodyPreview.slice(0, 200))}` : ""
  }`;
  if (res.kind !== "response") return `${sent}\n    -> ${res.kind}: ${res.detail} after ${res.ms} ms`;
  const text = res.body.toString("utf8").replace(/\s+/g, " ");
  const hint = /<title>([^<]*)<\/title>/.exec(text)?.[1] ?? text.slice(0, 240);
  return `${sent}\n    -> ${res.status} ${res.headers["content-type"] ?? ""} ${JSON.stringify(hint)}`;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Parse as far as possible; null while incomplete. `closed`: the peer ended the stream. */
function parseResponse(buf: Buffer, method: string, closed: boolean): Parsed | null {
  let offset = 0;
  for (;;) {
    const end = buf.indexOf("\r\n\r\n", offset);
    if (end < 0) return null;
    const head = buf.subarray(offset, end).toString("latin1").split("\r\n");
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "")?.[1]);
    if (!status) throw new Error(`not an HTTP response: ${JSON.stringify(head[0])}`);
    const headers: Record<string, string> = {};
    for (const line of head.slice(1)) {
      const i = line.indexOf(":");
      if (i < 0) continue;
      const k = line.slice(0, i).trim().toLowerCase();
      const v = line.slice(i + 1).trim();
      headers[k] = headers[k] === undefined ? v : `${headers[k]}, ${v}`;
    }
    const bodyStart = end + 4;
    if (status >= 100 && status < 200) {
      offset = bodyStart; // interim answer (100 Continue): the real one follows
      continue;
    }
    if (method === "HEAD" || status === 204 || status === 304) return { status, headers, body: Buffer.alloc(0) };
    const rest = buf.subarray(bodyStart);
    if (/chunked/i.test(headers["transfer-encoding"] ?? "")) {
      const parts: Buffer[] = [];
      let p = 0;
      for (;;) {
        const lineEnd = rest.indexOf("\r\n", p);
        if (lineEnd < 0) return closed ? { status, headers, body: Buffer.concat(parts) } : null;
        const size = parseInt(rest.subarray(p, lineEnd).toString("latin1"), 16);
        if (!Number.isFinite(size)) throw new Error("bad chunk size in the response");
        if (size === 0) return { status, headers, body: Buffer.concat(parts) };
        if (rest.length < lineEnd + 2 + size + 2) return closed ? { status, headers, body: Buffer.concat(parts) } : null;
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        p = lineEnd + 2 + size + 2;
      }
    }
    const length = headers["content-length"];
    if (length !== undefined) {
      const n = Number(length);
      if (rest.length >= n) return { status, headers, body: rest.subarray(0, n) };
      return closed ? { status, headers, body: rest } : null;
    }
    return closed ? { status, headers, body: rest } : null;
  }
}

export function rawRequest(req: RawRequest): Promise<RawResult> {
  const timeoutMs = req.timeoutMs ?? 15_000;
  const started = Date.now();
  return new Promise<RawResult>((resolve) => {
    const socket = connect({ port: req.port, host: "127.0.0.1" });
    const received: Buffer[] = [];
    let size = 0;
    let msToHeaders = -1;
    let done = false;
    let ended = false;

    const finish = (result: RawResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const partialStatus = () => {
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(Buffer.concat(received).subarray(0, 20).toString("latin1"));
      return m ? Number(m[1]) : undefined;
    };
    const tryParse = (closed: boolean) => {
      const buf = Buffer.concat(received);
      let parsed: Parsed | null;
      try {
        parsed = parseResponse(buf, req.method.toUpperCase(), closed);
      } catch (err) {
        finish({ kind: "closed", detail: `unparsable answer: ${(err as Error).message}`, ms: Date.now() - started });
        return;
      }
      if (parsed) finish({ kind: "response", ...parsed, msToHeaders, ms: Date.now() - started });
      else if (closed) finish({ kind: "closed", detail: size ? "connection closed mid-answer" : "connection closed without an answer", ms: Date.now() - started, partialStatus: partialStatus() });
    };

    const timer = setTimeout(
      () => finish({ kind: "timeout", detail: `no complete answer within ${timeoutMs} ms`, ms: Date.now() - started, partialStatus: partialStatus() }),
      timeoutMs,
    );

    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      size += chunk.length;
      if (msToHeaders < 0 && Buffer.concat(received).includes("\r\n\r\n")) msToHeaders = Date.now() - started;
      tryParse(false);
    });
    socket.on("end", () => {
      ended = true;
      tryParse(true);
    });
    // EPIPE/ECONNRESET while we are still sending: the server may already have answered
    socket.on("error", () => tryParse(true));
    socket.on("close", () => {
      if (!ended) tryParse(true);
    });

    socket.on("connect", async () => {
      const headers: Header[] = [...(req.headers ?? [])];
      const has = (name: string) => headers.some(([k]) => k.toLowerCase() === name);
      if (!req.noHost && !has("host")) headers.unshift(["Host", `127.0.0.1:${req.port}`]);
      if (!has("connection")) headers.push(["Connection", "close"]);
      const body = typeof req.body === "string" ? Buffer.from(req.body, "utf8") : req.body;
      if (body && !has("content-length") && !has("transfer-encoding")) headers.push(["Content-Length", String(body.length)]);
      if (req.chunks && !has("transfer-encoding")) headers.push(["Transfer-Encoding", "chunked"]);
      const head = `${req.method} ${req.target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
      const write = (b: Buffer | string) =>
        new Promise<void>((ok) => {
          if (done || socket.destroyed) return ok();
          if (socket.write(b)) ok();
          else {
            const go = () => {
              socket.off("close", go);
              socket.off("drain", go);
              ok();
            };
            socket.once("drain", go);
            socket.once("close", go);
          }
        });
      await write(Buffer.from(head, "latin1"));
      if (body) {
        // in slices, so a server that answers early stops the upload promptly
        for (let i = 0; i < body.length && !done && !socket.destroyed; i += 256 * 1024) await write(body.subarray(i, i + 256 * 1024));
      }
      if (req.chunks) {
        for await (const piece of req.chunks) {
          if (done || socket.destroyed) break;
          if (piece.length) await write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")]));
        }
        await write("0\r\n\r\n");
      }
    });
  });
}

/** A form body: application/x-www-form-urlencoded with every value percent-encoded. */
export function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}
