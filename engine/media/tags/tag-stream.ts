/**
 * Tags on the way out: the cover fetched beside the media (never holding it up for long, never
 * failing it), an ID3 tag sent ahead of an MP3, and an MP4's head rewritten with its tags.
 */
import { Readable } from "node:stream";
import type { Logger } from "pino";
import { redactUrls } from "../../errors.ts";
import type { OutboundOpen } from "../../outbound/outbound-fetch.ts";
import { readAll } from "../../outbound/outbound-fetch.ts";
import { buildId3Tag } from "./id3.ts";
import { buildChpl, buildMp4Meta, coverItemBytes, fragmentsRelative, scanHead, tagMoov } from "./mp4-tags.ts";
import { MAX_COVER_BYTES, type CoverImage, type FileTags } from "./tag-fields.ts";

/** How long the cover may take, all of it: the file's first byte waits at most this long for it. */
export const COVER_TIMEOUT_MS = 4_000;
/** An MP4 whose moov (and first fragment) is not whole within this many bytes goes out untagged. */
export const MAX_HEAD_BYTES = 8 * 1024 * 1024;

function imageType(data: Buffer): CoverImage["mimeType"] | null {
  if (data.length > 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (data.length > 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  return null;
}

/**
 * The thumbnail as a cover, through the guarded outbound door: null when it fails, is slow
 * (COVER_TIMEOUT_MS in all), too large (MAX_COVER_BYTES) or not a JPEG or PNG. Never throws.
 */
export async function fetchCover(url: string, ctx: { open: OutboundOpen; signal: AbortSignal; logger: Logger; timeoutMs?: number }): Promise<CoverImage | null> {
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(ctx.timeoutMs ?? COVER_TIMEOUT_MS)]);
  try {
    const res = await ctx.open(url, { signal, retries: 0, maxBytes: MAX_COVER_BYTES, timeoutMs: ctx.timeoutMs ?? COVER_TIMEOUT_MS });
    if (res.status !== 200) {
      res.body.destroy();
      ctx.logger.info({ status: res.status }, "cover left out: the thumbnail was not served");
      return null;
    }
    const data = await new Promise<Buffer>((resolve, reject) => {
      const onAbort = () => {
        res.body.destroy();
        reject(new Error("cover timed out"));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      readAll(res.body).then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
    const mimeType = imageType(data);
    if (!mimeType) {
      ctx.logger.info({ bytes: data.length }, "cover left out: the thumbnail is not a JPEG or PNG");
      return null;
    }
    return { mimeType, data };
  } catch (err) {
    ctx.logger.info({ err: redactUrls((err as Error)?.message) }, "cover left out: the thumbnail could not be fetched");
    return null;
  }
}

/** `first` followed by the rest of `body`, as one stream (errors and teardown forwarded). */
export function prepend(first: Buffer, body: Readable): Readable {
  async function* all(): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    for await (const chunk of body) yield chunk as Buffer;
  }
  const out = Readable.from(all(), { objectMode: false, highWaterMark: 64 * 1024 });
  out.once("close", () => {
    if (!body.destroyed) body.destroy();
  });
  return out;
}

/** An MP3 with its ID3 tag in front. */
export function withId3(tags: FileTags, cover: CoverImage | null, mp3: Readable): Readable {
  return prepend(buildId3Tag(tags.fields, cover, tags.chapters), mp3);
}

/** Reads from `body` until `enough` says so (or `max` bytes, or its end); what was read stays first in line. */
export function readUntil(body: Readable, enough: (buf: Buffer) => boolean, max: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let length = 0;
    // checked at growing steps, so a head read in many small chunks is not copied over and over
    let nextCheck = 0;
    const cleanup = () => {
      body.off("readable", onReadable);
      body.off("end", onEnd);
      body.off("error", onError);
      signal.removeEventListener("abort", onAbort);
    };
    const done = () => {
      cleanup();
      resolve(Buffer.concat(parts, length));
    };
    const onReadable = () => {
      for (let chunk = body.read() as Buffer | null; chunk !== null; chunk = body.read() as Buffer | null) {
        parts.push(chunk);
        length += chunk.length;
        if (length >= max) return done();
        if (length < nextCheck) continue;
        nextCheck = Math.max(length + 4096, Math.ceil(length * 1.25));
        if (enough(Buffer.concat(parts, length))) return done();
      }
    };
    const onEnd = () => done();
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onAbort = () => {
      cleanup();
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    body.on("readable", onReadable);
    body.once("end", onEnd);
    body.once("error", onError);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** the head is known: the moov is whole, and a fragmented file's first moof too */
function headKnown(buf: Buffer): boolean {
  const scan = scanHead(buf);
  if (scan.state === "more") return false;
  return scan.state === "untaggable" || !scan.fragmented || fragmentsRelative(buf, scan.moov.end) !== "more";
}

export interface TaggedHead {
  /** the rewritten bytes that stand for the original's first `replaces` bytes */
  head: Buffer;
  replaces: number;
  /** bytes the tags add to the file */
  added: number;
}

/**
 * The first bytes of an MP4 (as read by `readMp4Head`) with the tags in its moov, or null when the
 * file cannot take them here (the moov after the media, a fragment with absolute offsets, a head
 * beyond MAX_HEAD_BYTES). `promisedCover`: the cover's size the file's announced length counts;
 * when the cover did not come, its room is kept free so the length holds. `fixedSize`: the file
 * grows by exactly mp4TagBytes (a file sent as it is, whose length was announced).
 */
export function tagMp4Head(buf: Buffer, tags: FileTags, cover: CoverImage | null, promisedCover: number | null = null, fixedSize = false): TaggedHead | null {
  const scan = scanHead(buf);
  if (scan.state !== "moov") return null;
  if (scan.fragmented && fragmentsRelative(buf, scan.moov.end) !== true) return null;
  const fits = cover && (promisedCover === null || cover.data.length === promisedCover) ? cover : null;
  const pad = promisedCover !== null && !fits ? coverItemBytes(promisedCover) : 0;
  // a file sent as it is gets its chapters here, beside the meta (docs/decisions/064)
  const meta = Buffer.concat([buildMp4Meta(tags.fields, fits), ...(tags.chapters?.length ? [buildChpl(tags.chapters)] : [])]);
  const moov = tagMoov(buf, scan.moov, meta, pad, fixedSize);
  if (!moov) return null;
  const head = Buffer.concat([buf.subarray(0, scan.moov.start), moov]);
  return { head, replaces: scan.moov.end, added: head.length - scan.moov.end };
}

/** The head of an MP4 stream, read far enough to tag it (the moov, and a fragmented file's first moof). */
export function readMp4Head(body: Readable, signal: AbortSignal): Promise<Buffer> {
  return readUntil(body, headKnown, MAX_HEAD_BYTES, signal);
}

/** An MP4 stream with its tags in its moov, and the bytes they added (0 when it could not take them: it goes out as it came). */
export async function withMp4Tags(tags: FileTags, cover: CoverImage | null, mp4: Readable, signal: AbortSignal, promisedCover: number | null = null): Promise<{ stream: Readable; added: number }> {
  const buf = await readMp4Head(mp4, signal);
  const tagged = tagMp4Head(buf, tags, cover, promisedCover);
  if (!tagged) return { stream: prepend(buf, mp4), added: 0 };
  return { stream: prepend(Buffer.concat([tagged.head, buf.subarray(tagged.replaces)]), mp4), added: tagged.added };
}

/** Any tagged output of ffmpeg: an MP3 gets its ID3 tag ahead, an MP4 (M4A, AAC, video) its moov rewritten. */
export async function withFileTags(tags: FileTags, cover: Promise<CoverImage | null>, out: Readable, signal: AbortSignal): Promise<Readable> {
  const image = await cover;
  if (tags.style === "id3") return withId3(tags, image, out);
  return (await withMp4Tags(tags, image, out, signal)).stream;
}

type ByteRange = { start: number; end: number };

export interface TaggedPassthrough {
  status: 200 | 206;
  body: Readable;
  /** the bytes this answer carries, when known */
  length: number | null;
  /** for a 206: `bytes s-e/total` of the tagged file */
  contentRange?: string;
}

/**
 * A file sent as it is, with its tags in its head: the whole file, or the range asked for of the
 * tagged file (its head rebuilt from the original's first bytes, the rest read where it lies in
 * the original). The same link gives the same bytes on every request: the cover's room is kept
 * when it does not come (tagMp4Head's `promisedCover`).
 */
export async function openTaggedPassthrough(input: {
  tags: FileTags;
  cover: Promise<CoverImage | null>;
  /** the original's size, when known */
  total: number | null;
  range: string | undefined;
  signal: AbortSignal;
  open: (range?: ByteRange) => Promise<{ body: Readable; length: number | null }>;
  parseRange: (header: string | undefined, total: number | null) => ByteRange | null | "invalid";
  rangeInvalid: (total: number) => Error;
}): Promise<TaggedPassthrough> {
  const promised = input.tags.cover?.bytes ?? null;
  const whole = async (): Promise<TaggedPassthrough> => {
    const source = await input.open();
    const buf = await readMp4Head(source.body, input.signal);
    const tagged = tagMp4Head(buf, input.tags, await input.cover, promised, true);
    if (!tagged) return { status: 200, body: prepend(buf, source.body), length: source.length };
    const rest = buf.subarray(tagged.replaces);
    return { status: 200, body: prepend(Buffer.concat([tagged.head, rest]), source.body), length: source.length === null ? null : source.length + tagged.added };
  };
  if (!input.range || input.total === null) return whole();
  // a range: the tagged head first (from the original's first bytes), then the range mapped onto the original
  const headSource = await input.open({ start: 0, end: Math.min(input.total, MAX_HEAD_BYTES) - 1 });
  const buf = await readMp4Head(headSource.body, input.signal);
  headSource.body.destroy();
  const tagged = tagMp4Head(buf, input.tags, await input.cover, promised, true) ?? { head: Buffer.alloc(0), replaces: 0, added: 0 };
  const total = input.total + tagged.added;
  const range = input.parseRange(input.range, total);
  if (range === "invalid") throw input.rangeInvalid(total);
  if (range === null) return whole();
  const fromHead = range.start < tagged.head.length ? tagged.head.subarray(range.start, Math.min(range.end + 1, tagged.head.length)) : Buffer.alloc(0);
  const length = range.end - range.start + 1;
  const contentRange = `bytes ${range.start}-${range.end}/${total}`;
  if (range.end < tagged.head.length) return { status: 206, body: Readable.from([fromHead]), length, contentRange };
  const rest = await input.open({ start: Math.max(range.start, tagged.head.length) - tagged.added, end: range.end - tagged.added });
  return { status: 206, body: prepend(fromHead, rest.body), length, contentRange };
}
