/**
 * The head of an HTTP/1.1 response read by the media exchange (media-exchange.ts), strictly:
 * CRLF lines, a bounded size, no folded headers, and a body framing that cannot be read two ways
 * (RFC 9112 §6.3: both Transfer-Encoding and Content-Length, or two different lengths, are
 * refused, as a request smuggled past us would be).
 */
import type { IncomingHttpHeaders } from "node:http";

/** Node's default --max-http-header-size */
export const MAX_HEAD_BYTES = 16 * 1024;

export class ResponseHeadError extends Error {
  readonly code = "HPE_INVALID_RESPONSE";
}

export interface ResponseHead {
  statusCode: number;
  statusMessage: string;
  /** "1.0" or "1.1" */
  httpVersion: string;
  /** name, value, name, value… as received (IncomingMessage.rawHeaders) */
  rawHeaders: string[];
  /** lower-case names; set-cookie as a list; a repeated header's first value otherwise */
  headers: IncomingHttpHeaders;
}

export type BodyFraming = { kind: "none" } | { kind: "length"; length: number } | { kind: "chunked" } | { kind: "close" };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\r\n]*))?$/;
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** where the head ends (the index after its blank line) in `buf`, or -1 while it has not arrived */
export function headEnd(buf: Buffer): number {
  const at = buf.indexOf("\r\n\r\n");
  return at === -1 ? -1 : at + 4;
}

/** Parses a head (without its blank line). Throws ResponseHeadError when it is not well formed. */
export function parseResponseHead(text: string): ResponseHead {
  const lines = text.split("\r\n");
  const status = STATUS_LINE.exec(lines[0] ?? "");
  if (!status) throw new ResponseHeadError(`malformed status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
  const rawHeaders: string[] = [];
  const headers: IncomingHttpHeaders = {};
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    if (line.startsWith(" ") || line.startsWith("\t")) throw new ResponseHeadError("folded header line");
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name)) throw new ResponseHeadError(`malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
    const value = line.slice(colon + 1).replace(/^[\t ]+|[\t ]+$/g, "");
    if (!FIELD_VALUE.test(value)) throw new ResponseHeadError(`invalid characters in header ${name}`);
    rawHeaders.push(name, value);
    const key = name.toLowerCase();
    if (key === "set-cookie") (headers["set-cookie"] ??= []).push(value);
    else if (headers[key] === undefined) headers[key] = value;
  }
  return { statusCode: Number(status[2]), statusMessage: status[3] ?? "", httpVersion: `1.${status[1]}`, rawHeaders, headers };
}

function valuesOf(head: ResponseHead, name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < head.rawHeaders.length; i += 2) if (head.rawHeaders[i]!.toLowerCase() === name) out.push(head.rawHeaders[i + 1]!);
  return out;
}

/** How the body of `head`, answering `method`, is delimited. */
export function bodyFraming(method: string, head: ResponseHead): BodyFraming {
  const status = head.statusCode;
  if (method === "HEAD" || status === 204 || status === 304 || (status >= 100 && status < 200)) return { kind: "none" };
  const encodings = valuesOf(head, "transfer-encoding")
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const lengths = valuesOf(head, "content-length").flatMap((v) => v.split(",").map((x) => x.trim()));
  if (encodings.length > 0) {
    if (lengths.length > 0) throw new ResponseHeadError("both Transfer-Encoding and Content-Length");
    if (encodings.at(-1) !== "chunked" || encodings.indexOf("chunked") !== encodings.length - 1) throw new ResponseHeadError(`unsupported Transfer-Encoding: ${encodings.join(", ")}`);
    if (encodings.length > 1) throw new ResponseHeadError(`unsupported Transfer-Encoding: ${encodings.join(", ")}`);
    return { kind: "chunked" };
  }
  if (lengths.length > 0) {
    if (!lengths.every((l) => /^\d{1,15}$/.test(l) && l === lengths[0])) throw new ResponseHeadError(`invalid Content-Length: ${lengths.join(", ")}`);
    return { kind: "length", length: Number(lengths[0]) };
  }
  return { kind: "close" };
}

/** whether the connection may carry another request once this response's body has ended */
export function keepsAlive(head: ResponseHead, framing: BodyFraming): boolean {
  if (framing.kind === "close" || head.httpVersion !== "1.1") return false;
  return !valuesOf(head, "connection").some((v) => v.split(",").some((t) => t.trim().toLowerCase() === "close"));
}
