import { Transform } from "node:stream";
import zlib from "node:zlib";
import { EngineError } from "../errors.ts";

/** Body and header helpers of the outbound door: header conversion, size caps, decoding. */

export function toHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header value Headers refuses (invalid bytes) carries nothing we use; skip it.
    }
  }
  return headers;
}

/** Counts bytes through; beyond `max` the stream fails with upstream.too_large. */
export function sizeCap(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > max) cb(new EngineError("upstream.too_large", { detail: `body exceeded ${max} bytes` }));
      else cb(null, chunk);
    },
  });
}

export function decoderFor(encoding: string | null): Transform | null {
  switch ((encoding ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

export async function bodyToBuffer(body: BodyInit | null | undefined, headers: Headers): Promise<Buffer | null> {
  if (body === null || body === undefined) return null;
  if (typeof body === "string") return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  // URLSearchParams, Blob, FormData, streams: let Response encode them (it also knows the type).
  const wrapped = new Response(body);
  const type = wrapped.headers.get("content-type");
  if (type && !headers.has("content-type")) headers.set("content-type", type);
  return Buffer.from(await wrapped.arrayBuffer());
}

