import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { AppConfig } from "./config.ts";

/** Origins of the image hosts a video's details point at (thumbnails, channel avatars). */
const IMAGE_HOSTS = ["https://i.ytimg.com", "https://*.ytimg.com", "https://yt3.ggpht.com", "https://*.ggpht.com", "https://yt3.googleusercontent.com"];
const EMBED_HOSTS = ["https://www.youtube-nocookie.com"];
const AD_HOSTS = [
  "https://pagead2.googlesyndication.com",
  "https://*.googlesyndication.com",
  "https://*.doubleclick.net",
  "https://*.google.com",
  "https://*.gstatic.com",
];

/** Origins the effective host map points at (a mock platform's images must load in the browser). */
function mappedOrigins(hostMap: string | undefined): string[] {
  if (!hostMap) return [];
  return [
    ...new Set(
      hostMap.split(",")
        .map((e) => e.split("=")[1]?.trim())
        .filter((o): o is string => Boolean(o))
        .map((o) => new URL(o).origin),
    ),
  ];
}

/**
 * Where our own forms may lead: a plan's form answers with a redirect to Stripe's hosted
 * Checkout, the dashboard's to its Customer Portal (without JavaScript that redirect is still a
 * form submission, which form-action governs). A fake Stripe (STRIPE_API_BASE) serves both.
 */
function paymentOrigins(config: AppConfig): string[] {
  if (!config.STRIPE_SECRET_KEY) return [];
  const origins = ["https://checkout.stripe.com", "https://billing.stripe.com"];
  if (config.STRIPE_API_BASE) origins.push(new URL(config.STRIPE_API_BASE).origin);
  return origins;
}

export function contentSecurityPolicy(
  config: AppConfig,
  scriptHashes: readonly string[],
  opts: { dev: boolean; https: boolean; hostMap?: string },
): string {
  const ads = config.AD_PROVIDER !== "none" ? AD_HOSTS : [];
  const mapped = mappedOrigins(opts.hostMap);
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    // 'wasm-unsafe-eval' lets the converter compile its MP3 encoder (LAME in WebAssembly, run in a
    // blob: worker that inherits this policy); it allows WebAssembly only, never JavaScript eval.
    // Site-wide because the tools are reached by client-side navigation, which keeps the first
    // document's policy (docs/decisions/015-browser-media-tools.md).
    // inline scripts by their hashes (computed from the rendered page, docs/decisions/018):
    // the same page always has the same policy, so it can be cached
    "script-src": ["'self'", ...scriptHashes, "'wasm-unsafe-eval'", ...ads],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...IMAGE_HOSTS, ...mapped, ...ads],
    // the preview of a generic link plays the visitor's own media link in a native <video>
    "media-src": ["'self'", "blob:", "https:", ...mapped],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...mapped, ...(opts.dev ? ["ws:", "wss:"] : []), ...ads],
    // mapped origins: the mock platform's preview player stands in for the no-cookie embed
    "frame-src": [...EMBED_HOSTS, ...mapped, ...ads],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'", ...paymentOrigins(config)],
    "frame-ancestors": ["'none'"],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
  };
  const parts = Object.entries(directives).map(([k, v]) => `${k} ${v.join(" ")}`);
  if (opts.https) parts.push("upgrade-insecure-requests");
  return parts.join("; ");
}

/** The header the policy goes in: report-only in development, where Vite injects inline scripts for hot reload. */
export const cspHeaderName = (dev: boolean) => (dev ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy");

/** Executable inline scripts: no src, and a JavaScript (or module) type. JSON-LD and other data blocks never run. */
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/dgi;
const EXECUTABLE_TYPE = /^\s*(|module|text\/javascript|application\/javascript)\s*$/i;

/**
 * The CSP hash sources ('sha256-…') of every executable inline script in an HTML document, in
 * order of appearance, without repeats. The browser hashes a script's text, UTF-8 encoded,
 * exactly as it stands between the tags: that is, a UTF-8 page's own bytes, which are hashed
 * here without decoding the page. The bytes are read as Latin-1 (one character per byte, so
 * every index is a byte offset): the tags, quotes and `>` searched for are ASCII, and no ASCII
 * byte occurs inside a UTF-8 multi-byte character, so the same scripts are found as in the
 * decoded text, at about half the cost (docs/decisions/030-pages-render-into-a-string.md).
 */
export function inlineScriptHashes(html: string | Uint8Array): string[] {
  const bytes = typeof html === "string" ? Buffer.from(html, "utf8") : Buffer.from(html.buffer, html.byteOffset, html.byteLength);
  const text = bytes.toString("latin1");
  const hashes = new Set<string>();
  for (const m of text.matchAll(INLINE_SCRIPT)) {
    const attrs = m[1] ?? "";
    if (/\ssrc\s*=/i.test(attrs)) continue;
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? "";
    if (!EXECUTABLE_TYPE.test(type)) continue;
    const [start, end] = m.indices![2]!;
    hashes.add(`'sha256-${createHash("sha256").update(bytes.subarray(start, end)).digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * Security headers on every response. The policy here allows no inline script at all; an HTML
 * page replaces it with one that adds the hashes of its own inline scripts (page-handler.ts).
 * Nothing in these headers differs between two requests for the same URL; HSTS is sent over
 * HTTPS (or when the public address is HTTPS).
 */
export function securityHeaderList(config: AppConfig, opts: { dev: boolean; https: boolean; hostMap?: string }) {
  const common: (readonly [string, string])[] = [
    [cspHeaderName(opts.dev), contentSecurityPolicy(config, [], opts)],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
  ];
  const withHsts = [...common, ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const];
  return (secure: boolean): readonly (readonly [string, string])[] => (opts.https || secure ? withHsts : common);
}

export function securityHeaders(config: AppConfig, opts: { dev: boolean; https: boolean; hostMap?: string }) {
  const headersFor = securityHeaderList(config, opts);
  return (req: Request, res: Response, next: NextFunction) => {
    for (const [k, v] of headersFor(req.secure)) res.setHeader(k, v);
    next();
  };
}
