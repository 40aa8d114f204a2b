import type Stripe from "stripe";
import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { createMemoryLimiter, type AttemptLimiter } from "#app/lib/attempt-limiter.server.ts";
import type { PaidPlanId } from "./plans.ts";

/**
 * Stripe as the billing use-cases see it. `null` when the server has no STRIPE_SECRET_KEY: the
 * plans are still shown and subscribing says payments are not configured (never a 500).
 */
export interface BillingServices {
  stripe: Stripe;
  /** our plan id → the Stripe price charged for it (STRIPE_PRICE_*), decided on the server */
  prices: Record<PaidPlanId, string>;
  webhookSecret: string;
  /** success, cancel and portal return URLs are built from PUBLIC_URL, never from a request */
  publicUrl: string;
  /** checkout starts and verifications per user */
  limiter: AttemptLimiter;
}

/** What every billing use-case needs: the database, a logger, and Stripe when configured. */
export interface BillingDeps {
  db: Database;
  logger: Logger;
  billing: BillingServices | null;
}

export interface StripeSettings {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  STRIPE_PRICE_BASIC?: string;
  STRIPE_PRICE_PRO?: string;
  STRIPE_PRICE_ULTIMATE?: string;
  PUBLIC_URL: string;
}

/** Budgets per user and window: generous for a person, tight for a script hammering Stripe. */
export const BILLING_LIMIT_RULES = {
  checkoutPerUser: { limit: 10, windowMs: 10 * 60_000 },
  verifyPerUser: { limit: 30, windowMs: 10 * 60_000 },
  managePerUser: { limit: 10, windowMs: 10 * 60_000 },
} as const;

/** The SDK's host/port/protocol for STRIPE_API_BASE (a fake Stripe in dev and tests). */
function apiBaseOptions(apiBase: string | undefined): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: Number(url.port || (protocol === "http" ? 80 : 443)), protocol };
}

/** The SDK (~6 MB of heap) is imported only by a server with payment keys (docs/decisions/019). */
export async function createBillingServices(settings: StripeSettings, opts: { limiter?: AttemptLimiter } = {}): Promise<BillingServices | null> {
  const key = settings.STRIPE_SECRET_KEY;
  const { STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PRICE_BASIC: basic, STRIPE_PRICE_PRO: pro, STRIPE_PRICE_ULTIMATE: ultimate } = settings;
  // the config schema already refuses a key without the rest; this keeps the type honest
  if (!key || !webhookSecret || !basic || !pro || !ultimate) return null;
  const { default: Stripe } = await import("stripe");
  const stripe = new Stripe(key, {
    ...apiBaseOptions(settings.STRIPE_API_BASE),
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: "VidFetch" },
  });
  return {
    stripe,
    prices: { basic, pro, ultimate },
    webhookSecret,
    publicUrl: settings.PUBLIC_URL.replace(/\/+$/, ""),
    limiter: opts.limiter ?? createMemoryLimiter(),
  };
}

/** Our plan for a Stripe price id, or null for a price this server does not sell. */
export function planOfPrice(billing: BillingServices, priceId: string | null | undefined): PaidPlanId | null {
  if (!priceId) return null;
  const entry = (Object.entries(billing.prices) as Array<[PaidPlanId, string]>).find(([, id]) => id === priceId);
  return entry ? entry[0] : null;
}
