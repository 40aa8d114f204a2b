/**
 * Small reads through the outbound fetch: a manifest (size-capped) or the first bytes of a media
 * file or segment (for probing), never a whole media file.
 */
import { EngineError } from "../../errors.ts";
import type { SegmentRef } from "../../types.ts";
import type { SourceContext } from "../types.ts";

/** Manifests larger than this are not manifests we can handle (a 4 h HLS playlist is ~1 MB). */
export const MANIFEST_MAX_BYTES = 8 * 1024 * 1024;
/** Enough of a file for ffprobe to see its header (moov/EBML/PAT+PMT). */
export const PROBE_BYTES = 1024 * 1024;

/** Maps an upstream HTTP status onto the catalogue (404/410 → the user's link is dead). */
export function statusError(status: number, url: string): EngineError {
  const detail = `HTTP ${status} from ${url}`;
  if (status === 404 || status === 410) return new EngineError("video.not_found", { detail });
  if (status === 401 || status === 403) return new EngineError("video.unavailable", { detail });
  return new EngineError("upstream.fetch_failed", { detail });
}

export async function fetchText(ctx: SourceContext, url: string): Promise<{ text: string; url: string; contentType: string }> {
  const res = await ctx.fetch(url, { maxBytes: MANIFEST_MAX_BYTES });
  if (!res.ok) throw statusError(res.status, url);
  return { text: await res.text(), url: res.url || url, contentType: res.headers.get("content-type") ?? "" };
}

export interface Head {
  bytes: Buffer;
  /** whole length of the resource when the server told us */
  total: number | null;
  /** true when `bytes` is the whole resource */
  complete: boolean;
  url: string;
  contentType: string;
  lastModified: string | null;
}

/**
 * Given the bytes received so far, how many of them describe the resource (reading stops once
 * that many have arrived), or null to keep reading up to the limit.
 */
export type Enough = (received: Buffer) => number | null;

/**
 * Reads at most `limit` bytes of a resource (a Range request; servers that ignore it are cut off).
 * With `enough`, stops as soon as it says the bytes so far suffice, but only for a resource
 * longer than `limit` (a shorter one is read whole, as without it, so `complete` still holds).
 * With `onChunk`, each piece is also handed on as it arrives (never past `limit`), so a prober
 * can read the bytes while the rest are still on their way.
 */
export async function fetchHead(
  ctx: SourceContext,
  ref: SegmentRef | string,
  limit = PROBE_BYTES,
  enough?: Enough,
  onChunk?: (bytes: Buffer) => void,
): Promise<Head> {
  const url = typeof ref === "string" ? ref : ref.url;
  const range = typeof ref === "string" ? undefined : ref.range;
  const start = range?.start ?? 0;
  const end = range ? Math.min(range.end, start + limit - 1) : start + limit - 1;
  const controller = new AbortController();
  const res = await ctx.fetch(url, { headers: { range: `bytes=${start}-${end}` }, signal: controller.signal });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw statusError(res.status, url);
  }
  let total: number | null = null;
  const contentRange = res.headers.get("content-range");
  const m = contentRange ? /\/(\d+)\s*$/.exec(contentRange) : null;
  if (res.status === 206 && m) total = Number(m[1]);
  else if (res.status === 200) {
    const len = Number(res.headers.get("content-length"));
    total = Number.isFinite(len) && len > 0 ? len : null;
  }
  const parts: Buffer[] = [];
  let received = 0;
  let wanted = end - start + 1;
  let ended = false;
  let stopEarly = enough && total !== null && total - start > wanted ? enough : undefined;
  if (res.body) {
    const reader = res.body.getReader();
    try {
      while (received < wanted) {
        const { done, value } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        const piece = Buffer.from(value);
        if (onChunk && received < wanted) onChunk(piece.subarray(0, wanted - received));
        parts.push(piece);
        received += piece.byteLength;
        if (stopEarly) {
          const joined = parts.length > 1 ? Buffer.concat(parts) : parts[0]!;
          parts.length = 0;
          parts.push(joined);
          const n = stopEarly(joined);
          if (n !== null) {
            wanted = Math.max(1, Math.min(wanted, n));
            stopEarly = undefined;
          }
        }
      }
    } finally {
      if (!ended) {
        // a server that ignored the Range header would send the whole file: stop it here
        await reader.cancel().catch(() => undefined);
        controller.abort();
      }
    }
  }
  const bytes = Buffer.concat(parts).subarray(0, wanted);
  const complete = ended && (total === null || (res.status === 200 ? true : start + bytes.length >= total));
  return {
    bytes,
    total,
    complete: complete && !range,
    url: res.url || url,
    contentType: res.headers.get("content-type") ?? "",
    lastModified: res.headers.get("last-modified"),
  };
}
