/**
 * A fake Stripe for `MOCKS=true` (dev), the integration tests and e2e: one local server that
 * answers the part of Stripe's HTTP API our server calls through the `stripe` SDK (pointed here
 * by STRIPE_API_BASE), in Stripe's JSON shapes for the SDK's pinned API version, plus the pages
 * a browser sees at Stripe:
 *
 *   API      POST /v1/customers, POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id,
 *            GET /v1/checkout/sessions (customer, status), POST /v1/checkout/sessions/:id/expire,
 *            GET /v1/subscriptions (customer, status=all), GET|POST|DELETE /v1/subscriptions/:id,
 *            POST /v1/billing_portal/sessions
 *   Checkout GET /c/pay/:id  with "Pay" (completes the session, creates the subscription with a
 *            real period, sends signed webhooks to our webhook URL, then redirects to
 *            success_url) and "Cancel" (back to cancel_url)
 *   Portal   GET /p/session/:id  the customer's subscriptions, "Cancel plan" at period end
 *
 * Webhooks are signed like Stripe's (`Stripe-Signature: t=…,v1=HMAC-SHA256(secret, "t.body")`).
 * Test helpers drive what Stripe would do on its own: a failed renewal, the end of its retries,
 * a subscription deleted. Every object is made up here; nothing is recorded from Stripe.
 */
import { createHmac, randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";

const API_VERSION = "2026-10-28.endive";
const DAY = 86_400;

type Json = Record<string, unknown>;

export const FAKE_STRIPE_PRICES = {
  basic: { id: "price_fake_basic", amount: 499, name: "Basic" },
  pro: { id: "price_fake_pro", amount: 999, name: "Pro" },
  ultimate: { id: "price_fake_ultimate", amount: 1999, name: "Ultimate" },
} as const;

export interface FakeStripeOptions {
  /** where webhooks go; may be set later (`fake.webhookUrl = ...`) once the server listens */
  webhookUrl?: string;
  logger?: Logger;
  /** the clock, in ms (tests move it) */
  now?: () => number;
  secretKey?: string;
  webhookSecret?: string;
}

interface Delivery {
  event: Json;
  status: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;

/** Stripe's form encoding (`a[b][0][c]=v`) back into objects; all-numeric keys become arrays. */
export function parseStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Json = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Json;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== "object") return v;
    const o = v as Json;
    const keys = Object.keys(o);
    const mapped = Object.fromEntries(keys.map((k) => [k, arrays(o[k])]));
    return keys.length > 0 && keys.every((k) => /^\d+$/.test(k)) ? keys.sort((a, b) => Number(a) - Number(b)).map((k) => mapped[k]) : mapped;
  };
  return arrays(root) as Json;
}

/** The `Stripe-Signature` header for a payload, as Stripe computes it. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1e293b}h1{font-size:1.5rem}.box{border:1px solid #cbd5e1;border-radius:12px;padding:1.25rem;margin:1rem 0}button{font:inherit;padding:.6rem 1.4rem;border-radius:8px;border:1px solid #334155;cursor:pointer;margin-right:.5rem}button.primary{background:#4f46e5;color:#fff;border-color:#4f46e5}.note{color:#475569;font-size:.9rem}</style>
</head><body><p class="note">Test mode: the built-in fake Stripe. No real card is charged.</p>${body}</body></html>`;
}

export async function startFakeStripe(opts: FakeStripeOptions = {}) {
  const now = () => Math.floor((opts.now?.() ?? Date.now()) / 1000);
  const secretKey = opts.secretKey ?? `sk_test_fake_${randomBytes(12).toString("hex")}`;
  const webhookSecret = opts.webhookSecret ?? `whsec_fake_${randomBytes(16).toString("hex")}`;
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subs = new Map<string, Json>();
  const portals = new Map<string, Json>();
  const idempotent = new Map<string, Json>();
  const deliveries: Delivery[] = [];
  const pending = new Set<Promise<unknown>>();
  const priceById = new Map<string, Json>(
    Object.values(FAKE_STRIPE_PRICES).map((p) => [
      p.id,
      {
        id: p.id,
        object: "price",
        active: true,
        currency: "usd",
        unit_amount: p.amount,
        nickname: p.name,
        product: `prod_fake_${p.name.toLowerCase()}`,
        recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
        type: "recurring",
        livemode: false,
      } as Json,
    ]),
  );

  function event(type: string, object: Json): Json {
    return {
      id: id("evt"),
      object: "event",
      api_version: API_VERSION,
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /** Send one event, signed with `secret` (the configured one unless a test forges another). */
  async function deliver(ev: Json, secret = webhookSecret): Promise<Delivery> {
    const url = fake.webhookUrl;
    const body = JSON.stringify(ev, null, 2);
    // status 0: not delivered (no endpoint configured, or it could not be reached)
    let status = 0;
    if (url) status = await post(url, body, stripeSignature(body, secret, now()), String(ev.type));
    const d = { event: ev, status };
    deliveries.push(d);
    return d;
  }

  async function post(url: string, body: string, signature: string, type: string): Promise<number> {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature, "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)" },
        body,
      });
      await res.arrayBuffer();
      return res.status;
    } catch (err) {
      opts.logger?.warn({ err, type }, "fake Stripe: webhook delivery failed");
      return 0;
    }
  }

  /** Stripe sends webhooks on its own time: in the background, awaited by `settle()`. */
  function deliverLater(ev: Json) {
    const p = deliver(ev).finally(() => pending.delete(p));
    pending.add(p);
  }

  function invoiceFor(sub: Json, status: "paid" | "open"): Json {
    const item = (sub.items as { data: Json[] }).data[0] as Json;
    const price = item.price as Json;
    return {
      id: id("in"),
      object: "invoice",
      customer: sub.customer,
      status,
      currency: "usd",
      amount_due: price.unit_amount,
      amount_paid: status === "paid" ? price.unit_amount : 0,
      billing_reason: "subscription_cycle",
      parent: { type: "subscription_details", quote_details: null, subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      created: now(),
      livemode: false,
    };
  }

  function createSubscription(session: Json): Json {
    const line = (session.line_items as Json[])[0] as Json;
    const price = priceById.get(String(line.price)) as Json;
    const data = (session.subscription_data ?? {}) as Json;
    const trialDays = data.trial_period_days ? Number(data.trial_period_days) : 0;
    const start = now();
    const trialEnd = trialDays ? start + trialDays * DAY : null;
    const periodEnd = trialEnd ?? start + 30 * DAY;
    const subId = id("sub");
    const sub: Json = {
      id: subId,
      object: "subscription",
      customer: session.customer,
      status: trialEnd ? "trialing" : "active",
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      collection_method: "charge_automatically",
      created: start,
      start_date: start,
      currency: "usd",
      trial_start: trialEnd ? start : null,
      trial_end: trialEnd,
      metadata: (data.metadata as Json) ?? {},
      livemode: false,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            subscription: subId,
            price,
            quantity: 1,
            created: start,
            current_period_start: start,
            current_period_end: periodEnd,
            metadata: {},
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
    };
    subs.set(subId, sub);
    return sub;
  }

  /** What "Pay" does: the session completes, the subscription exists, webhooks go out. */
  async function completeCheckout(sessionId: string, o: { webhooks?: boolean } = {}): Promise<Json> {
    const session = sessions.get(sessionId);
    if (!session || session.status !== "open") throw new Error(`fake Stripe: session ${sessionId} is not open`);
    const sub = createSubscription(session);
    Object.assign(session, {
      status: "complete",
      payment_status: sub.status === "trialing" ? "no_payment_required" : "paid",
      subscription: sub.id,
    });
    if (o.webhooks !== false) {
      await deliver(event("checkout.session.completed", { ...session }));
      await deliver(event("customer.subscription.created", { ...sub }));
      if (sub.status === "active") await deliver(event("invoice.paid", invoiceFor(sub, "paid")));
    }
    return sub;
  }

  function setSub(subId: string, changes: Json): Json {
    const sub = subs.get(subId);
    if (!sub) throw new Error(`fake Stripe: no subscription ${subId}`);
    Object.assign(sub, changes);
    return sub;
  }

  // ---- HTTP ----

  function send(res: ServerResponse, status: number, body: Json) {
    res.writeHead(status, { "content-type": "application/json", "request-id": id("req"), "stripe-version": API_VERSION });
    res.end(JSON.stringify(body));
  }
  function stripeError(res: ServerResponse, status: number, message: string, extra: Json = {}) {
    send(res, status, { error: { type: "invalid_request_error", message, ...extra } });
  }
  function html(res: ServerResponse, status: number, body: string) {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(body);
  }
  function redirect(res: ServerResponse, to: string) {
    res.writeHead(303, { location: to });
    res.end();
  }
  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  const listOf = (data: Json[], url: string) => ({ object: "list", data, has_more: false, url });

  async function api(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
    }
    const form = req.method === "POST" ? parseStripeForm(await readBody(req)) : {};
    const p = url.pathname;
    const key = req.headers["idempotency-key"];
    const idemKey = typeof key === "string" ? `${p}:${key}` : null;
    if (idemKey && idempotent.has(idemKey)) return send(res, 200, idempotent.get(idemKey) as Json);
    const created = (obj: Json) => {
      if (idemKey) idempotent.set(idemKey, obj);
      send(res, 200, obj);
    };
    let m: RegExpExecArray | null;

    if (req.method === "POST" && p === "/v1/customers") {
      const customer = { id: id("cus"), object: "customer", email: form.email ?? null, name: form.name ?? null, metadata: form.metadata ?? {}, created: now(), livemode: false };
      customers.set(customer.id, customer);
      return created(customer);
    }
    if (req.method === "POST" && p === "/v1/checkout/sessions") {
      const lines = (form.line_items ?? []) as Json[];
      if (form.mode !== "subscription") return stripeError(res, 400, "This fake only sells subscriptions.", { param: "mode" });
      if (!customers.has(String(form.customer))) return stripeError(res, 400, `No such customer: '${String(form.customer)}'`, { code: "resource_missing", param: "customer" });
      const price = priceById.get(String(lines[0]?.price));
      if (lines.length !== 1 || !price) return stripeError(res, 400, `No such price: '${String(lines[0]?.price)}'`, { code: "resource_missing", param: "line_items[0][price]" });
      const sessionId = `cs_test_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
      const session: Json = {
        id: sessionId,
        object: "checkout.session",
        mode: "subscription",
        status: "open",
        payment_status: "unpaid",
        customer: form.customer,
        client_reference_id: form.client_reference_id ?? null,
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        metadata: form.metadata ?? {},
        subscription_data: form.subscription_data ?? {},
        line_items: lines,
        amount_total: price.unit_amount,
        currency: "usd",
        subscription: null,
        created: now(),
        expires_at: now() + DAY,
        livemode: false,
        url: `${fake.origin}/c/pay/${sessionId}`,
      };
      sessions.set(sessionId, session);
      const { subscription_data: _hidden, line_items: _lines, ...shown } = session;
      return created(shown);
    }
    if (req.method === "GET" && p === "/v1/checkout/sessions") {
      const customer = url.searchParams.get("customer");
      const status = url.searchParams.get("status");
      const data = [...sessions.values()]
        .filter((x) => (!customer || x.customer === customer) && (!status || x.status === status))
        .sort((a, b) => Number(b.created) - Number(a.created))
        .map(({ subscription_data: _hidden, line_items: _lines, ...shown }) => shown);
      return send(res, 200, listOf(data.slice(0, Number(url.searchParams.get("limit") ?? 10)), "/v1/checkout/sessions"));
    }
    if (req.method === "POST" && (m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(p))) {
      const session = sessions.get(decodeURIComponent(m[1] ?? ""));
      if (!session) return stripeError(res, 404, `No such checkout.session: '${m[1]}'`, { code: "resource_missing", param: "session" });
      if (session.status !== "open") return stripeError(res, 400, `Only Checkout Sessions with a status in ["open"] can be expired.`);
      Object.assign(session, { status: "expired", url: null });
      const { subscription_data: _hidden, line_items: _lines, ...shown } = session;
      return send(res, 200, shown);
    }
    if (req.method === "GET" && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(p))) {
      const session = sessions.get(decodeURIComponent(m[1] ?? ""));
      if (!session) return stripeError(res, 404, `No such checkout.session: '${m[1]}'`, { code: "resource_missing", param: "session" });
      const { subscription_data: _hidden, line_items: _lines, ...shown } = session;
      return send(res, 200, shown);
    }
    if (req.method === "GET" && p === "/v1/subscriptions") {
      const customer = url.searchParams.get("customer");
      const status = url.searchParams.get("status");
      const data = [...subs.values()].filter((s) => (!customer || s.customer === customer) && (status === "all" || s.status !== "canceled"));
      return send(res, 200, listOf(data.slice(0, Number(url.searchParams.get("limit") ?? 10)), "/v1/subscriptions"));
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(p))) {
      const sub = subs.get(decodeURIComponent(m[1] ?? ""));
      if (!sub) return stripeError(res, 404, `No such subscription: '${m[1]}'`, { code: "resource_missing", param: "id" });
      if (req.method === "DELETE") {
        if (sub.status === "canceled") return stripeError(res, 400, "This subscription has already been canceled.");
        setSub(String(sub.id), { status: "canceled", ended_at: now(), canceled_at: now() });
        deliverLater(event("customer.subscription.deleted", { ...sub }));
        return send(res, 200, sub);
      }
      if (req.method === "POST") {
        if (sub.status === "canceled") return stripeError(res, 400, "A canceled subscription can only update its cancellation_details and metadata.");
        if (form.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = form.cancel_at_period_end === "true";
          sub.canceled_at = sub.cancel_at_period_end ? now() : null;
        }
        deliverLater(event("customer.subscription.updated", { ...sub }));
      }
      return send(res, 200, sub);
    }
    if (req.method === "POST" && p === "/v1/billing_portal/sessions") {
      if (!customers.has(String(form.customer))) return stripeError(res, 400, `No such customer: '${String(form.customer)}'`, { code: "resource_missing", param: "customer" });
      const portalId = id("bps");
      const portal = { id: portalId, object: "billing_portal.session", customer: form.customer, return_url: form.return_url ?? null, created: now(), livemode: false, url: `${fake.origin}/p/session/${portalId}` };
      portals.set(portalId, portal);
      return created(portal);
    }
    stripeError(res, 404, `Unrecognized request URL (${req.method}: ${p}).`);
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, url: URL) {
    let m: RegExpExecArray | null;
    if ((m = /^\/c\/pay\/([^/]+)(?:\/(pay|cancel))?$/.exec(url.pathname))) {
      const session = sessions.get(m[1] ?? "");
      if (!session) return html(res, 404, page("Checkout", "<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>"));
      if (req.method === "POST" && m[2] === "cancel") return redirect(res, String(session.cancel_url));
      if (req.method === "POST" && m[2] === "pay") {
        if (session.status === "expired") return html(res, 410, page("Checkout", "<h1>This checkout has expired</h1><p>No payment was taken.</p>"));
        if (session.status === "open") await completeCheckout(String(session.id));
        return redirect(res, String(session.success_url).replace("{CHECKOUT_SESSION_ID}", String(session.id)));
      }
      if (session.status === "expired") return html(res, 410, page("Checkout", "<h1>This checkout has expired</h1><p>You can close this page.</p>"));
      if (session.status !== "open") return html(res, 410, page("Checkout", "<h1>This checkout is complete</h1><p>You can close this page.</p>"));
      const price = priceById.get(String((session.line_items as Json[])[0]?.price)) as Json;
      const customer = customers.get(String(session.customer)) ?? {};
      const trial = (session.subscription_data as Json).trial_period_days;
      return html(
        res,
        200,
        page(
          "Checkout",
          `<h1>Subscribe to ${escapeHtml(String(price.nickname))}</h1>
<div class="box"><p><strong>$${(Number(price.unit_amount) / 100).toFixed(2)}</strong> per month</p>
${trial ? `<p>${escapeHtml(String(trial))} days free, then billed monthly.</p>` : ""}
<p class="note">${escapeHtml(String(customer.email ?? ""))}</p></div>
<form method="post" action="/c/pay/${escapeHtml(String(session.id))}/pay" style="display:inline"><button class="primary" type="submit">Pay</button></form>
<form method="post" action="/c/pay/${escapeHtml(String(session.id))}/cancel" style="display:inline"><button type="submit">Cancel</button></form>`,
        ),
      );
    }
    if ((m = /^\/p\/session\/([^/]+)(?:\/cancel\/([^/]+))?$/.exec(url.pathname))) {
      const portal = portals.get(m[1] ?? "");
      if (!portal) return html(res, 404, page("Billing", "<h1>This link has expired</h1>"));
      if (req.method === "POST" && m[2]) {
        const sub = subs.get(m[2]);
        if (sub && sub.customer === portal.customer && sub.status !== "canceled") {
          setSub(m[2], { cancel_at_period_end: true, canceled_at: now() });
          await deliver(event("customer.subscription.updated", { ...sub }));
        }
        return redirect(res, `/p/session/${String(portal.id)}`);
      }
      const rows = [...subs.values()]
        .filter((s) => s.customer === portal.customer && s.status !== "canceled")
        .map((s) => {
          const item = (s.items as { data: Json[] }).data[0] as Json;
          const end = new Date(Number(item.current_period_end) * 1000).toDateString();
          const price = item.price as Json;
          return `<div class="box"><p><strong>${escapeHtml(String(price.nickname))}</strong> (${escapeHtml(String(s.status))})</p>
<p>${s.cancel_at_period_end ? `Cancels on ${end}` : `Renews on ${end}`}</p>
${s.cancel_at_period_end ? "" : `<form method="post" action="/p/session/${escapeHtml(String(portal.id))}/cancel/${escapeHtml(String(s.id))}"><button type="submit">Cancel plan</button></form>`}</div>`;
        })
        .join("");
      return html(
        res,
        200,
        page("Billing", `<h1>Manage your subscription</h1>${rows || "<p>No active subscription.</p>"}<p><a href="${escapeHtml(String(portal.return_url ?? "/"))}">Return to VidFetch</a></p>`),
      );
    }
    html(res, 404, page("Not found", "<h1>Not found</h1>"));
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake-stripe.invalid");
    const handler = url.pathname.startsWith("/v1/") ? api : hosted;
    handler(req, res, url).catch((err: unknown) => {
      opts.logger?.error({ err }, "fake Stripe: request failed");
      if (!res.headersSent) send(res, 500, { error: { type: "api_error", message: "fake Stripe failed" } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake = {
    origin,
    webhookUrl: opts.webhookUrl,
    /** the settings our server needs to use this fake */
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_PUBLISHABLE_KEY: `pk_test_fake_${secretKey.slice(-12)}`,
      STRIPE_API_BASE: origin,
      STRIPE_PRICE_BASIC: FAKE_STRIPE_PRICES.basic.id,
      STRIPE_PRICE_PRO: FAKE_STRIPE_PRICES.pro.id,
      STRIPE_PRICE_ULTIMATE: FAKE_STRIPE_PRICES.ultimate.id,
    },
    customers,
    sessions,
    subscriptions: subs,
    /** every webhook sent, with our server's answer */
    deliveries,
    completeCheckout,
    event,
    deliver,
    /** wait for webhooks sent in the background */
    async settle() {
      while (pending.size) await Promise.all([...pending]);
    },
    /** a renewal payment failed: Stripe marks the subscription past_due and retries */
    async failPayment(subId: string) {
      const sub = setSub(subId, { status: "past_due" });
      await deliver(event("invoice.payment_failed", invoiceFor(sub, "open")));
      await deliver(event("customer.subscription.updated", { ...sub }));
    },
    /** Stripe's retries ran out: the subscription is canceled or left unpaid (per the account's settings) */
    async endRetries(subId: string, outcome: "canceled" | "unpaid") {
      const sub = setSub(subId, outcome === "canceled" ? { status: "canceled", ended_at: now(), canceled_at: now() } : { status: "unpaid" });
      await deliver(event(outcome === "canceled" ? "customer.subscription.deleted" : "customer.subscription.updated", { ...sub }));
    },
    /** the subscription is deleted (in the Dashboard, or immediately through the API) */
    async deleteSubscription(subId: string) {
      const sub = setSub(subId, { status: "canceled", ended_at: now(), canceled_at: now() });
      await deliver(event("customer.subscription.deleted", { ...sub }));
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;
