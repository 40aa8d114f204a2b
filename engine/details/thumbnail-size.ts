import type { Logger } from "pino";
import { pickHdThumbnail } from "../formats.ts";
import type { OutboundFetch } from "../outbound/outbound-fetch.ts";
import type { ResolvedMedia } from "../types.ts";

/** A slow image host must not hold up the video's details: the size then stays unknown. */
const HEAD_TIMEOUT_MS = 2_000;

/**
 * The HD thumbnail's real size, asked with one HEAD while the link is resolved (cached with the
 * rest of the resolve), so the "Thumbnail HD JPG" row shows its bytes instead of the spec's
 * "200 KB". Without an answer the row keeps the spec's range.
 */
export async function measureHdThumbnail(media: ResolvedMedia, fetch: OutboundFetch, opts: { signal?: AbortSignal; logger?: Logger } = {}): Promise<void> {
  const thumb = pickHdThumbnail(media.thumbnails);
  if (!thumb || thumb.bytes !== undefined) return;
  try {
    const res = await fetch(thumb.url, { method: "HEAD", timeoutMs: HEAD_TIMEOUT_MS, retries: 0, signal: opts.signal });
    const bytes = Number(res.headers.get("content-length"));
    if (res.ok && Number.isSafeInteger(bytes) && bytes > 0) thumb.bytes = bytes;
  } catch (err) {
    opts.logger?.debug({ err, thumbnail: thumb.url }, "thumbnail size unknown: HEAD failed");
  }
}
