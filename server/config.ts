import { z } from "zod";
import type { AdPlacement } from "#app/lib/public-config.ts";
import { parseIpv6Cidr, parseOutboundProxies } from "#engine/outbound/egress.ts";

/**
 * The one configuration schema (DESIGN §4). Parsed once at start; a bad value stops the server
 * with a message naming the variable. docs/env.md lists every variable; keep them in step.
 */
const bool = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

// the public part (what the browser sees) is defined in app/, which never imports server/
export { publicConfig, type AdPlacement, type PublicConfig } from "#app/lib/public-config.ts";

const hostMapEntry = /^(\*\.)?[a-z0-9.-]+=https?:\/\/[^\s,]+$/i;

/** A value the engine's own parser accepts; its message (never the value: it may hold a password) otherwise. */
function checkWith(parse: (raw: string | undefined) => unknown, value: string | undefined, ctx: z.RefinementCtx): void {
  try {
    parse(value);
  } catch (err) {
    ctx.addIssue({ code: "custom", message: (err as Error).message });
  }
}

/** Variables whose values carry credentials: a bad one is named, its value never repeated. */
const SECRET_VALUES = new Set(["OUTBOUND_PROXIES"]);

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
    PORT: int(0, 65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    SITE_NAME: z.string().min(1).max(60).default("VidFetch"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    TRUST_PROXY: optionalString,
    REDIS_URL: optionalString.pipe(
      z
        .string()
        .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
        .optional(),
    ),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_.-]{1,64}$/, "letters, digits and : _ . - only (at most 64)")
      .default("vidfetch:"),

    BANNER_MESSAGE: z.string().max(200).default("Free, fast downloads. No sign-up, no installation, no files stored."),
    AD_PROVIDER: z.enum(["none", "adsense"]).default("none"),
    AD_CLIENT: optionalString.pipe(z.string().regex(/^ca-pub-\d+$/, "must look like ca-pub-1234567890").optional()),
    AD_SLOTS: z
      .string()
      .default("")
      .refine(
        (v) => v.trim() === "" || v.split(",").every((e) => /^(header|footer|sidebar|in-content)=\d+$/.test(e.trim())),
        "must be placement=slotId pairs, placements header, footer, sidebar, in-content (e.g. header=1234567890)",
      )
      .transform((v) =>
        Object.fromEntries(
          v
            .split(",")
            .map((e) => e.trim())
            .filter(Boolean)
            .map((e) => e.split("=") as [string, string]),
        ) as Partial<Record<AdPlacement, string>>,
      ),
    // unset: the pages point to the contact form, and messages are only stored
    CONTACT_EMAIL: optionalString.pipe(z.email().optional()),
    // Ultimate members' contact messages (the plan's account manager); unset: CONTACT_EMAIL
    SUPPORT_ULTIMATE_EMAIL: optionalString.pipe(z.email().optional()),
    // the account with this (verified) email gets /admin; unset: nobody does
    ADMIN_EMAIL: optionalString.pipe(z.email().optional()),

    YOUTUBE_API_KEY: optionalString,
    YOUTUBE_API_BASE_URL: z.url({ protocol: /^https?$/ }).default("https://www.googleapis.com/youtube/v3"),
    // a bgutil-ytdlp-pot-provider HTTP server (operator configuration: http(s) only); unset: no tokens
    YOUTUBE_POT_PROVIDER_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    // SponsorBlock's API (issue 33 §4; operator configuration: http(s) only)
    SPONSORBLOCK_API_URL: z.url({ protocol: /^https?$/ }).default("https://sponsor.ajay.app"),
    // InnerTube clients, and `ytdlp` (any case) for yt-dlp as the last rung where this server has it
    YOUTUBE_CLIENTS: z
      .string()
      .default("VISIONOS,ANDROID,ytdlp")
      .transform((v) => v.split(",").map((s) => (s.trim().toLowerCase() === "ytdlp" ? "ytdlp" : s.trim())).filter(Boolean))
      .pipe(z.array(z.string().regex(/^([A-Z0-9_]+|ytdlp)$/, "client names are upper-case InnerTube names, or ytdlp")).min(1)),
    OUTBOUND_HOST_MAP: optionalString.pipe(
      z
        .string()
        .refine(
          (v) => v.split(",").every((e) => hostMapEntry.test(e.trim())),
          "must be host=origin pairs separated by commas, e.g. www.youtube.com=http://127.0.0.1:4000",
        )
        .optional(),
    ),
    // the egress pool (decision 057): proxies (http, https, socks5; user:password@ allowed) and a routed IPv6 prefix
    OUTBOUND_PROXIES: optionalString.superRefine((v, ctx) => checkWith(parseOutboundProxies, v, ctx)),
    OUTBOUND_IPV6_CIDR: optionalString.superRefine((v, ctx) => checkWith(parseIpv6Cidr, v, ctx)),
    ALLOW_PRIVATE_SOURCES: bool.default(false),
    FFMPEG_PATH: optionalString,
    FFPROBE_PATH: optionalString,
    YTDLP_PATH: optionalString,
    MOCKS: bool.default(false),

    DOWNLOAD_SIGNING_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    AUTH_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
    MAX_CONCURRENT_DOWNLOADS: int(1, 10_000).default(100),
    DOWNLOADS_PER_IP_PER_HOUR: int(0, 1_000_000).default(300),
    MAX_CONCURRENT_DOWNLOADS_PER_IP: int(0, 10_000).default(10),
    // open connections per client address, not counting a trusted proxy's (decision 036); 0: no cap
    MAX_CONNECTIONS_PER_IP: int(0, 100_000).default(64),
    DOWNLOAD_SEGMENT_CONCURRENCY: int(1, 32).default(6),
    DOWNLOAD_CHUNK_BYTES: int(64 * 1024, 64 * 1024 * 1024).default(8 * 1024 * 1024),
    DOWNLOAD_RANGE_CONCURRENCY: int(1, 16).default(6),
    OUTBOUND_MAX_CONNECTIONS_PER_HOST: int(0, 10_000).default(64),
    DOWNLOAD_LINK_TTL_SECONDS: int(30, 86_400).default(3600),
    RESOLVE_CACHE_SECONDS: int(0, 3600).default(300),
    OUTBOUND_TIMEOUT_MS: int(1000, 120_000).default(15_000),
    POST_RATE_LIMIT_PER_MINUTE: int(1, 10_000).default(30),
    // requests that resolve a link (POST resolve/downloads, GET download), per IP: server/api/resolve-limit.ts
    RESOLVE_RATE_LIMIT_PER_MINUTE: int(1, 10_000).default(30),
    // anonymous pages kept in memory (server/page-cache.ts); 0 turns the cache off
    PAGE_CACHE_MB: int(0, 1024).default(8),
    ACCOUNT_IP_LIMIT_SCALE: int(1, 1_000).default(1),

    SMTP_URL: optionalString.pipe(z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional()),
    MAIL_FROM: optionalString,

    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    STRIPE_PUBLISHABLE_KEY: optionalString,
    STRIPE_API_BASE: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    STRIPE_PRICE_BASIC: optionalString.pipe(z.string().regex(/^price_\w+$/, "must be a Stripe price id (price_...)").optional()),
    STRIPE_PRICE_PRO: optionalString.pipe(z.string().regex(/^price_\w+$/, "must be a Stripe price id (price_...)").optional()),
    STRIPE_PRICE_ULTIMATE: optionalString.pipe(z.string().regex(/^price_\w+$/, "must be a Stripe price id (price_...)").optional()),

    // job output (jobs/storage): DATA_DIR/files/, or a bucket when the S3_* group is set
    S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
    S3_BUCKET: optionalString.pipe(
      z
        .string()
        .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3-63 lower-case letters, digits, dots and hyphens")
        .optional(),
    ),
    S3_REGION: optionalString.pipe(z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region name such as us-east-1 or auto").optional()),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    JOB_STORAGE_MAX_MB: int(1, 100_000_000).default(2048),

    // the platform canary (issue 32 §5): links checked every CANARY_INTERVAL_MINUTES (0: off)
    CANARY_LINKS: optionalString.pipe(
      z
        .string()
        .refine((v) => v.split(",").every((e) => /^https?:\/\/\S+$/.test(e.trim())), "must be http(s) links separated by commas")
        .optional(),
    ),
    CANARY_INTERVAL_MINUTES: int(0, 1440).default(30),
  })
  .superRefine((env, ctx) => {
    // Job storage in a bucket is all or nothing (the endpoint may stay unset for AWS itself):
    // half a group would silently keep job output on the local disk instead.
    const s3 = ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;
    if (env.S3_ENDPOINT || s3.some((name) => env[name])) {
      for (const name of s3) {
        if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when any S3_* variable is set (job output in a bucket)" });
      }
    }
  })
  .superRefine((env, ctx) => {
    // Payments are all or nothing: a secret key without the webhook secret or a plan's price
    // would take money and never record it, or offer a plan that cannot be bought.
    if (!env.STRIPE_SECRET_KEY) return;
    for (const name of ["STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_BASIC", "STRIPE_PRICE_PRO", "STRIPE_PRICE_ULTIMATE"] as const) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: "is required when STRIPE_SECRET_KEY is set" });
    }
  })
  .transform((env) => ({
    ...env,
    PUBLIC_URL: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
  }));

export type AppConfig = z.output<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n${issues.map((i) => `  - ${i}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parse the environment; throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join(".") || "(environment)";
        const value = issue.path.length && !SECRET_VALUES.has(String(issue.path[0])) ? env[String(issue.path[0])] : undefined;
        return `${name}: ${issue.message}${value !== undefined ? ` (got "${value}")` : ""}`;
      }),
    );
  }
  return result.data;
}

/**
 * For the entry points: parse, or print every bad variable and exit with status 1. A server
 * with a wrong setting must not start half-configured.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee docs/env.md for every variable.\n`);
      process.exit(1);
    }
    throw err;
  }
}
