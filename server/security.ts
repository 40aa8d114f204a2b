import { randomBytes } from "node:crypto";
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
  nonce: string,
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
    "script-src": ["'self'", `'nonce-${nonce}'`, "'wasm-unsafe-eval'", ...ads],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...IMAGE_HOSTS, ...mapped, ...ads],
    // the preview of a generic link plays the visitor's own media link in a native <video>
    "media-src": ["'self'", "blob:", "https:", ...mapped],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...mapped, ...(opts.dev ? ["ws:", "wss:"] : []), ...ads],
    "frame-src": [...EMBED_HOSTS, ...ads],
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

/**
 * Security headers on every response. The CSP nonce is kept in res.locals for the renderer.
 * In development Vite injects inline module scripts for hot reload, so the CSP is report-only there.
 */
export function securityHeaders(config: AppConfig, opts: { dev: boolean; hostMap?: string }) {
  const https = config.PUBLIC_URL.startsWith("https://");
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    const csp = contentSecurityPolicy(config, nonce, { dev: opts.dev, https, hostMap: opts.hostMap });
    res.setHeader(opts.dev ? "Content-Security-Policy-Report-Only" : "Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    if (https || req.secure) res.setHeader("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    next();
  };
}
