import express, { type Request, type Response, type Router } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import type { AccountServices, SessionUser } from "#app/modules/account/account-services.server.ts";
import { getSessionUser } from "#app/modules/account/session-user.server.ts";
import { BILLING_ERRORS, type BillingErrorCode } from "#app/modules/billing/billing-messages.ts";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import { handleStripeWebhook } from "#app/modules/billing/handle-stripe-webhook.server.ts";
import { startCheckout } from "#app/modules/billing/start-checkout.server.ts";
import { verifyCheckout } from "#app/modules/billing/verify-checkout.server.ts";
import { defineErrors } from "#common/error-catalogue.ts";
import type { Database } from "#db/client.ts";
import { refuse } from "../http-errors.ts";

export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

/** What the webhook answers Stripe when it cannot take an event (a 500 makes Stripe retry). */
export const WEBHOOK_ERRORS = defineErrors({
  "webhook.bad_signature": { status: 400, message: "The webhook signature is not valid." },
  "webhook.failed": { status: 500, message: "The event could not be processed; it will be retried." },
});

/** Stripe's events are a few KB; a megabyte leaves room and bounds what a stranger can send. */
const WEBHOOK_LIMIT_BYTES = 1024 * 1024;
const JSON_LIMIT_BYTES = 16 * 1024;

/**
 * The spec's two payment calls (§7) keep their request and response shapes, but behind the
 * session cookie, and nothing in the body decides anything: `planName` names the plan and the
 * rest (price, URLs, email, metadata) is accepted and ignored. The session id of
 * verify-payment is checked against Stripe and the logged-in user.
 */
const checkoutBody = z.object({
  planName: z.string().max(64),
  price: z.unknown().optional(),
  successUrl: z.unknown().optional(),
  cancelUrl: z.unknown().optional(),
  customerEmail: z.unknown().optional(),
  metadata: z.unknown().optional(),
});
const verifyBody = z.object({ sessionId: z.string().max(300), timestamp: z.unknown().optional() });

const ANSWERS = { ...BILLING_ERRORS, ...WEBHOOK_ERRORS };

function fail(res: Response, code: keyof typeof ANSWERS, retryAfterSeconds?: number) {
  const { status, message } = ANSWERS[code];
  if (retryAfterSeconds) res.set("retry-after", String(retryAfterSeconds));
  res.status(status).set("cache-control", "no-store").json({ error: { code, message } });
}

/** better-auth reads the session from the cookie of a fetch Request. */
function sessionRequest(req: Request): globalThis.Request {
  return new globalThis.Request("http://session.invalid/", { headers: { cookie: req.headers.cookie ?? "" } });
}

export function createBillingRouter(deps: { db: Database; logger: Logger; billing: BillingServices | null; accounts: AccountServices }): Router {
  const { accounts } = deps;
  const logger = deps.logger.child({ module: "billing" });
  const useCaseDeps = { db: deps.db, logger, billing: deps.billing };
  const router = express.Router();

  // The raw bytes, exactly as Stripe signed them: no JSON parser runs before this one.
  router.post("/stripe/webhook", express.raw({ type: () => true, limit: WEBHOOK_LIMIT_BYTES }), async (req, res) => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const result = await handleStripeWebhook(useCaseDeps, body, req.get("stripe-signature"));
    res.set("cache-control", "no-store");
    if (result.status === 200) res.json({ received: true });
    else if (result.status === 400) fail(res, "webhook.bad_signature");
    else if (result.status === 500) fail(res, "webhook.failed");
    else fail(res, "billing.not_configured");
  });

  const json = express.json({ limit: JSON_LIMIT_BYTES });

  /** Session first (each call's own "log in" wording), then the body, then the use-case. */
  function authedJson<T>(
    path: string,
    loginCode: BillingErrorCode,
    schema: z.ZodType<T>,
    badBodyCode: BillingErrorCode,
    run: (user: SessionUser, body: T) => Promise<{ ok: true; body: object } | { ok: false; code: BillingErrorCode; retryAfterSeconds?: number }>,
  ) {
    router.post(path, json, async (req, res) => {
      const user = await getSessionUser(accounts, sessionRequest(req));
      if (!user) return fail(res, loginCode);
      const parsed = schema.safeParse(req.body);
      if (!parsed.success) return fail(res, badBodyCode);
      const result = await run(user, parsed.data);
      if (!result.ok) return fail(res, result.code, result.retryAfterSeconds);
      res.set("cache-control", "no-store").json(result.body);
    });
  }

  authedJson("/create-checkout-session", "billing.login_required", checkoutBody, "billing.invalid_plan", async (user, body) => {
    const r = await startCheckout(useCaseDeps, user, body.planName);
    // `url`: Stripe.js no longer redirects by session id; the browser goes to this address
    return r.ok ? { ok: true, body: { sessionId: r.sessionId, url: r.url } } : r;
  });

  authedJson("/verify-payment", "billing.verify_login_required", verifyBody, "billing.no_session", async (user, body) => {
    const r = await verifyCheckout(useCaseDeps, user, body.sessionId);
    return r.ok ? { ok: true, body: { success: true, plan: r.plan } } : r;
  });

  // A GET (or any other method) on these is not a thing.
  router.all(["/stripe/webhook", "/create-checkout-session", "/verify-payment"], (req, res) => {
    refuse(req, res, "request.method_not_allowed", { headers: { allow: "POST" } });
  });

  return router;
}
