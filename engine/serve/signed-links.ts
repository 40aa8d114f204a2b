import { createHmac, timingSafeEqual } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { EngineError } from "../errors.ts";
import { optionsClaim, optionsFromClaim, type MediaOptions } from "../media/options/media-options.ts";
import type { Caller } from "../types.ts";

/**
 * Signed, expiring download links (HMAC-SHA256). The token carries everything needed to start
 * the download, so `GET /dl/{token}` checks the signature and expiry before any work starts and
 * a link cannot be edited to another video, format or entitlement.
 */
export interface DownloadClaims {
  /** download id (progress key) */
  id: string;
  /** the normalised link the user gave */
  url: string;
  /** format id */
  format: string;
  caller: Caller["kind"];
  plan?: Caller["plan"];
  /** the signed-in account that created the link (history), if any */
  userId?: string;
  /** expiry, epoch seconds */
  exp: number;
  /** the subtitle language chosen for a text format (absent: the video's own pick) */
  language?: string;
  /** a download profile's file-name template (absent: the format's own name) */
  template?: string;
  /** the media options asked for (absent: the defaults); signed with the rest, so a link cannot be edited to others */
  options?: MediaOptions;
}

/** a verified payload's options, or the refusal of a link whose options were not ours to write */
function readOptions(raw: unknown): MediaOptions | undefined {
  if (raw === undefined) return undefined;
  const options = optionsFromClaim(raw);
  if (!options) throw new EngineError("download.link_invalid", { detail: "payload options" });
  return options;
}

const b64url = (buf: Buffer) => buf.toString("base64url");

function mac(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`vidfetch-dl.v1.${body}`).digest();
}

export function signDownload(secret: string, claims: DownloadClaims): string {
  if (!secret) throw new EngineError("internal", { detail: "signing secret is empty" });
  const body = b64url(
    Buffer.from(JSON.stringify({ d: claims.id, u: claims.url, f: claims.format, c: claims.caller, p: claims.plan, a: claims.userId, e: claims.exp, l: claims.language, t: claims.template, o: optionsClaim(claims.options) })),
  );
  return `${body}.${b64url(mac(secret, body))}`;
}

/** Verifies signature (constant time) and expiry; `now` in epoch ms is injectable for tests. */
export function verifyDownload(secret: string, token: string, now: number = Date.now()): DownloadClaims {
  if (typeof token !== "string" || token.length > 8192) throw new EngineError("download.link_invalid");
  const dot = token.indexOf(".");
  if (dot <= 0 || dot !== token.lastIndexOf(".")) throw new EngineError("download.link_invalid");
  const body = token.slice(0, dot);
  // the signature's text, not its decoded bytes: base64url's last character carries unused
  // bits, so another spelling of the same bytes is a different link, and is refused like one
  const given = Buffer.from(token.slice(dot + 1), "utf8");
  const expected = Buffer.from(b64url(mac(secret, body)), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new EngineError("download.link_invalid");
  let raw: { d?: unknown; u?: unknown; f?: unknown; c?: unknown; p?: unknown; a?: unknown; e?: unknown; l?: unknown; t?: unknown; o?: unknown };
  try {
    raw = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof raw;
  } catch (cause) {
    throw new EngineError("download.link_invalid", { cause, detail: "payload is not JSON" });
  }
  const kinds = ["anonymous", "free", "premium"];
  if (
    typeof raw.d !== "string" ||
    typeof raw.u !== "string" ||
    typeof raw.f !== "string" ||
    typeof raw.c !== "string" ||
    !kinds.includes(raw.c) ||
    typeof raw.e !== "number" ||
    (raw.a !== undefined && typeof raw.a !== "string") ||
    (raw.l !== undefined && typeof raw.l !== "string") ||
    (raw.t !== undefined && typeof raw.t !== "string")
  ) {
    throw new EngineError("download.link_invalid", { detail: "payload fields" });
  }
  if (raw.e * 1000 <= now) throw new EngineError("download.link_expired");
  const plan = raw.p === "basic" || raw.p === "pro" || raw.p === "ultimate" ? raw.p : undefined;
  const claims: DownloadClaims = { id: raw.d, url: raw.u, format: raw.f, caller: raw.c as Caller["kind"], plan, exp: raw.e };
  if (typeof raw.a === "string") claims.userId = raw.a;
  if (typeof raw.l === "string") claims.language = raw.l;
  if (typeof raw.t === "string") claims.template = raw.t;
  const options = readOptions(raw.o);
  if (options) claims.options = options;
  return claims;
}

/**
 * A bulk download's link (`/dl/zip.{body}.{signature}`): like a single link, it carries all it
 * needs (every instance can serve it), here the list of links, deflated so that 50 ordinary
 * links fit in a URL. Signed under another purpose, so neither kind passes for the other.
 */
export interface BulkClaims extends Omit<DownloadClaims, "url"> {
  urls: string[];
  /** the archive's name (a playlist's title), when the caller gave one */
  name?: string;
}

export const BULK_TOKEN_PREFIX = "zip.";
/** a request line longer than this may be refused by proxies (and Node's 16 KiB header limit) */
export const MAX_BULK_TOKEN_CHARS = 12_000;
/** the inflated payload's ceiling: a forged body cannot make us inflate more than this */
const MAX_BULK_PAYLOAD_BYTES = 256 * 1024;

function bulkMac(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`vidfetch-bulk.v1.${body}`).digest();
}

export function isBulkToken(token: string): boolean {
  return typeof token === "string" && token.startsWith(BULK_TOKEN_PREFIX);
}

export function signBulk(secret: string, claims: BulkClaims): string {
  if (!secret) throw new EngineError("internal", { detail: "signing secret is empty" });
  const json = JSON.stringify({ d: claims.id, u: claims.urls, f: claims.format, c: claims.caller, p: claims.plan, a: claims.userId, e: claims.exp, n: claims.name, l: claims.language, t: claims.template, o: optionsClaim(claims.options) });
  const body = b64url(deflateRawSync(json));
  return `${BULK_TOKEN_PREFIX}${body}.${b64url(bulkMac(secret, body))}`;
}

export function verifyBulk(secret: string, token: string, now: number = Date.now()): BulkClaims {
  if (!isBulkToken(token) || token.length > MAX_BULK_TOKEN_CHARS + 1024) throw new EngineError("download.link_invalid");
  const rest = token.slice(BULK_TOKEN_PREFIX.length);
  const dot = rest.indexOf(".");
  if (dot <= 0 || dot !== rest.lastIndexOf(".")) throw new EngineError("download.link_invalid");
  const body = rest.slice(0, dot);
  const given = Buffer.from(rest.slice(dot + 1), "utf8");
  const expected = Buffer.from(b64url(bulkMac(secret, body)), "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new EngineError("download.link_invalid");
  let raw: { d?: unknown; u?: unknown; f?: unknown; c?: unknown; p?: unknown; a?: unknown; e?: unknown; n?: unknown; l?: unknown; t?: unknown; o?: unknown };
  try {
    raw = JSON.parse(inflateRawSync(Buffer.from(body, "base64url"), { maxOutputLength: MAX_BULK_PAYLOAD_BYTES }).toString("utf8")) as typeof raw;
  } catch (cause) {
    throw new EngineError("download.link_invalid", { cause, detail: "payload is not deflated JSON" });
  }
  if (
    typeof raw.d !== "string" ||
    !Array.isArray(raw.u) ||
    raw.u.length === 0 ||
    !raw.u.every((u) => typeof u === "string") ||
    typeof raw.f !== "string" ||
    typeof raw.c !== "string" ||
    !["anonymous", "free", "premium"].includes(raw.c) ||
    typeof raw.e !== "number" ||
    (raw.a !== undefined && typeof raw.a !== "string") ||
    (raw.n !== undefined && typeof raw.n !== "string") ||
    (raw.l !== undefined && typeof raw.l !== "string") ||
    (raw.t !== undefined && typeof raw.t !== "string")
  ) {
    throw new EngineError("download.link_invalid", { detail: "payload fields" });
  }
  if (raw.e * 1000 <= now) throw new EngineError("download.link_expired");
  const plan = raw.p === "basic" || raw.p === "pro" || raw.p === "ultimate" ? raw.p : undefined;
  const claims: BulkClaims = { id: raw.d, urls: raw.u as string[], format: raw.f, caller: raw.c as Caller["kind"], plan, exp: raw.e };
  if (typeof raw.a === "string") claims.userId = raw.a;
  if (typeof raw.n === "string") claims.name = raw.n;
  if (typeof raw.l === "string") claims.language = raw.l;
  if (typeof raw.t === "string") claims.template = raw.t;
  const options = readOptions(raw.o);
  if (options) claims.options = options;
  return claims;
}
