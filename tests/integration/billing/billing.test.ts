import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { createBillingServices, type BillingServices } from "#app/modules/billing/billing-services.server.ts";
import { getUserPlan } from "#app/modules/billing/user-plan.server.ts";
import { billingCustomers, stripeEvents, subscriptions } from "#db/schema/index.ts";
import { startFakeStripe, type FakeStripe } from "#tests/mocks/stripe.ts";
import { cookieHeaderFrom, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { recordingLogger } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase } from "#tests/support/test-db.ts";
import { startHost } from "../server/host.ts";

/**
 * Plans and payments end to end through the Express host, the `stripe` SDK and the fake Stripe
 * (tests/mocks/stripe.ts): checkout, the signed webhook, verification, and what Stripe does
 * later (failed renewals, deletion), read back through getUserPlan.
 */
const DAY = 86_400_000;

describe.each(testDatabases)("billing on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  const fakes: FakeStripe[] = [];
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.close();
  });

  async function setup(opts: { billing?: "none" | "fake"; prices?: Partial<Record<string, string>> } = {}) {
    const handle = await open();
    const db = handle.db;
    const accounts = testAccounts(db);
    const log = recordingLogger();
    const fake = await startFakeStripe();
    fakes.push(fake);
    const billing: BillingServices | null =
      opts.billing === "none" ? null : await createBillingServices({ ...fake.env, ...opts.prices, PUBLIC_URL: TEST_PUBLIC_URL });
    const host = await startHost({ accounts, db, billing: billing ?? undefined, logTo: { write: (l: string) => log.lines.push(JSON.parse(l)) } as never });
    fake.webhookUrl = `${host.base}/api/stripe/webhook`;
    let n = 0;
    async function signUp() {
      n += 1;
      const res = await accounts.auth.api.signUpEmail({ body: { name: `User ${n}`, email: `user${n}-${Date.now()}@example.com`, password: "correct-horse-battery" }, asResponse: true });
      const body = (await res.clone().json()) as { user: { id: string } };
      return { id: body.user.id, cookie: cookieHeaderFrom(res) };
    }
    function post(path: string, body: unknown, headers: Record<string, string> = {}) {
      return fetch(`${host.base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
    }
    async function checkout(user: { cookie: string }, planName = "Pro") {
      const res = await post("/api/create-checkout-session", { planName, price: 0.01, successUrl: "https://evil.example/", customerEmail: "x@evil.example" }, { cookie: user.cookie });
      return { res, body: (await res.json()) as { sessionId: string; url: string; error?: { code: string; message: string } } };
    }
    async function subscribe(user: { cookie: string }, planName = "Pro") {
      const { body } = await checkout(user, planName);
      const sub = await fake.completeCheckout(body.sessionId);
      return { sessionId: body.sessionId, subId: String(sub.id) };
    }
    const planOf = async (userId: string, now?: Date) => (await getUserPlan(db, userId, now)).plan;
    return { db, host, log, signUp, post, checkout, subscribe, planOf, fake, billing };
  }

  it.skipIf(skip)("checkout is decided on the server: plan's price, URLs from PUBLIC_URL, one customer, a 7-day trial the first time", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const { res, body } = await t.checkout(ada);
    expect(res.status).toBe(200);
    expect(body.sessionId).toMatch(/^cs_test_/);
    expect(body.url).toBe(`${t.fake.origin}/c/pay/${body.sessionId}`);
    const session = t.fake.sessions.get(body.sessionId)!;
    expect(session.line_items).toEqual([{ price: "price_fake_pro", quantity: "1" }]);
    expect(session.success_url).toBe(`${TEST_PUBLIC_URL}/payment-success?session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${TEST_PUBLIC_URL}/premium?checkout=canceled`);
    expect(session.client_reference_id).toBe(ada.id);
    expect(session.subscription_data).toMatchObject({ trial_period_days: "7", metadata: { userId: ada.id, plan: "pro" } });
    const [customer] = await t.db.select().from(billingCustomers).where(eq(billingCustomers.userId, ada.id));
    expect(session.customer).toBe(customer?.stripeCustomerId);

    // a second checkout reuses the customer
    await t.checkout(ada, "basic");
    expect(t.fake.customers.size).toBe(1);
    // nothing is upgraded before Stripe confirms a payment
    expect(await t.planOf(ada.id)).toBe("free");
  });

  it.skipIf(skip)("refuses a logged-out caller, an unknown plan and a cross-site request; says clearly when payments are off", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const anon = await t.post("/api/create-checkout-session", { planName: "Pro" });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ error: { code: "billing.login_required", message: "Please log in or create an account to subscribe" } });
    expect((await t.checkout(ada, "Platinum")).res.status).toBe(400);
    for (const path of ["/api/create-checkout-session", "/api/verify-payment"]) {
      const cross = await t.post(path, { planName: "Pro", sessionId: "cs_test_x" }, { cookie: ada.cookie, origin: "https://evil.example" });
      expect(cross.status).toBe(403);
    }
    expect(t.fake.sessions.size).toBe(0);

    const off = await setup({ billing: "none" });
    const bob = await off.signUp();
    const { res, body } = await off.checkout(bob);
    expect(res.status).toBe(503);
    expect(body.error?.message).toMatch(/Payments are not configured on this server/);
  });

  it.skipIf(skip)("Pay: the signed webhooks store the subscription; verify-payment confirms it for its owner only", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const eve = await t.signUp();
    const { sessionId, subId } = await t.subscribe(ada);
    expect(t.fake.deliveries.map((d) => [d.event.type, d.status])).toEqual([
      ["checkout.session.completed", 200],
      ["customer.subscription.created", 200],
    ]);
    const plan = await getUserPlan(t.db, ada.id);
    expect(plan.plan).toBe("pro");
    expect(plan.subscription).toMatchObject({ id: subId, status: "trialing", priceId: "price_fake_pro", cancelAtPeriodEnd: false });
    expect(plan.subscription?.currentPeriodEnd?.getTime()).toBeGreaterThan(Date.now() + 6 * DAY);

    const ok = await t.post("/api/verify-payment", { sessionId, timestamp: Date.now() }, { cookie: ada.cookie });
    expect(await ok.json()).toEqual({ success: true, plan: "pro" });

    // another user's session id never upgrades them
    const foreign = await t.post("/api/verify-payment", { sessionId, timestamp: Date.now() }, { cookie: eve.cookie });
    expect(foreign.status).toBe(402);
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toBe(
      "There was an issue verifying your payment. Please try again or contact support.",
    );
    expect(await t.planOf(eve.id)).toBe("free");
    // nor does a made-up one, or none
    expect((await t.post("/api/verify-payment", { sessionId: "cs_test_madeup" }, { cookie: eve.cookie })).status).toBe(402);
    expect((await t.post("/api/verify-payment", { sessionId: "" }, { cookie: eve.cookie })).status).toBe(400);
    expect((await t.post("/api/verify-payment", { sessionId })).status).toBe(401);
    expect(await t.planOf(eve.id)).toBe("free");
  });

  it.skipIf(skip)("an unpaid session never upgrades; a paid one upgrades on verification even before any webhook", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const { body } = await t.checkout(ada);
    const unpaid = await t.post("/api/verify-payment", { sessionId: body.sessionId }, { cookie: ada.cookie });
    expect(unpaid.status).toBe(402);
    expect(await t.planOf(ada.id)).toBe("free");

    await t.fake.completeCheckout(body.sessionId, { webhooks: false });
    expect(await t.planOf(ada.id)).toBe("free");
    const paid = await t.post("/api/verify-payment", { sessionId: body.sessionId }, { cookie: ada.cookie });
    expect(paid.status).toBe(200);
    expect(await t.planOf(ada.id)).toBe("pro");
  });

  it.skipIf(skip)("a forged or unsigned webhook is a 400 and changes nothing; a replayed event is processed once", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const { subId } = await t.subscribe(ada);
    const eventsBefore = await t.db.select().from(stripeEvents);
    const sub = t.fake.subscriptions.get(subId)!;

    sub.status = "canceled";
    const forged = await t.fake.deliver(t.fake.event("customer.subscription.deleted", { ...sub }), "whsec_not_the_secret");
    expect(forged.status).toBe(400);
    const unsigned = await fetch(t.fake.webhookUrl!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(t.fake.event("customer.subscription.deleted", { ...sub })) });
    expect(unsigned.status).toBe(400);
    expect(await t.db.select().from(stripeEvents)).toEqual(eventsBefore);
    expect(await t.planOf(ada.id)).toBe("pro");
    sub.status = "trialing";

    // the same event delivered twice: acted on once (the second time the truth has moved on)
    const ev = t.fake.event("customer.subscription.updated", { ...sub });
    expect((await t.fake.deliver(ev)).status).toBe(200);
    sub.status = "canceled";
    expect((await t.fake.deliver(ev)).status).toBe(200);
    expect(await t.planOf(ada.id)).toBe("pro");
    const rows = await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, String(ev.id)));
    expect(rows).toHaveLength(1);

    // a type we do not handle is acknowledged, not recorded
    expect((await t.fake.deliver(t.fake.event("charge.refunded", { id: "ch_1" }))).status).toBe(200);
    expect(await t.db.select().from(stripeEvents)).toHaveLength(eventsBefore.length + 1);
  });

  it.skipIf(skip)("an event whose subscription cannot be read from Stripe is a 500 and left for Stripe's retry", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const { subId } = await t.subscribe(ada);
    const sub = t.fake.subscriptions.get(subId)!;
    const ev = t.fake.event("customer.subscription.updated", { ...sub, id: "sub_gone" });
    expect((await t.fake.deliver(ev)).status).toBe(500);
    expect(await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, String(ev.id)))).toHaveLength(0);
    // the retry, once Stripe can answer, is processed
    t.fake.subscriptions.set("sub_gone", { ...sub, id: "sub_gone" });
    expect((await t.fake.deliver(ev)).status).toBe(200);
    expect(await t.db.select().from(stripeEvents).where(eq(stripeEvents.id, String(ev.id)))).toHaveLength(1);
  });

  it.skipIf(skip)("a failed renewal keeps the plan while Stripe retries; canceled or unpaid afterwards is free", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const bob = await t.signUp();
    const a = await t.subscribe(ada);
    const b = await t.subscribe(bob, "Ultimate");

    await t.fake.failPayment(a.subId);
    expect((await getUserPlan(t.db, ada.id)).subscription?.status).toBe("past_due");
    expect(await t.planOf(ada.id)).toBe("pro");
    await t.fake.endRetries(a.subId, "canceled");
    expect(await t.planOf(ada.id)).toBe("free");

    await t.fake.failPayment(b.subId);
    expect(await t.planOf(bob.id)).toBe("ultimate");
    await t.fake.endRetries(b.subId, "unpaid");
    expect(await t.planOf(bob.id)).toBe("free");
  });

  it.skipIf(skip)("deleted is free at once; canceled at period end keeps the plan until the period ends; the trial is for the first subscription only", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const first = await t.subscribe(ada, "Basic");
    expect(await t.planOf(ada.id)).toBe("basic");
    await t.fake.deleteSubscription(first.subId);
    expect(await t.planOf(ada.id)).toBe("free");

    const { body } = await t.checkout(ada, "Pro");
    expect(t.fake.sessions.get(body.sessionId)?.subscription_data).not.toHaveProperty("trial_period_days");
    const sub = await t.fake.completeCheckout(body.sessionId);
    expect(sub.status).toBe("active");
    expect(t.fake.deliveries.at(-1)?.event.type).toBe("invoice.paid");
    expect(await t.planOf(ada.id)).toBe("pro");

    // already subscribed: a second checkout is refused (plan changes go through the portal)
    expect((await t.checkout(ada, "Ultimate")).res.status).toBe(409);

    await t.billing!.stripe.subscriptions.update(String(sub.id), { cancel_at_period_end: true });
    await t.fake.settle();
    const held = await getUserPlan(t.db, ada.id);
    expect(held.subscription?.cancelAtPeriodEnd).toBe(true);
    expect(held.plan).toBe("pro");
    const periodEnd = held.subscription!.currentPeriodEnd!;
    expect(await t.planOf(ada.id, new Date(periodEnd.getTime() + 1000))).toBe("free");
  });

  it.skipIf(skip)("two checkout tabs: only the newest checkout can be paid, so one subscription and one trial", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const tab1 = await t.checkout(ada, "Basic");
    // opened a minute before the second tab (Stripe's creation times are in seconds)
    t.fake.sessions.get(tab1.body.sessionId)!.created = Number(t.fake.sessions.get(tab1.body.sessionId)!.created) - 60;
    const tab2 = await t.checkout(ada, "Pro");
    expect(tab1.res.status).toBe(200);
    expect(tab2.res.status).toBe(200);
    expect(t.fake.sessions.get(tab1.body.sessionId)?.status).toBe("expired");
    // the first tab's Pay button finds its checkout expired: no payment is taken
    const pay1 = await fetch(`${t.fake.origin}/c/pay/${tab1.body.sessionId}/pay`, { method: "POST", redirect: "manual" });
    expect(pay1.status).toBe(410);
    await t.fake.completeCheckout(tab2.body.sessionId);
    expect([...t.fake.subscriptions.values()].filter((x) => x.status !== "canceled")).toHaveLength(1);
    expect(await t.planOf(ada.id)).toBe("pro");
    // a third tab opened now is refused and pointed to Manage Subscription
    const tab3 = await t.checkout(ada, "Ultimate");
    expect(tab3.res.status).toBe(409);
    expect(tab3.body.error?.message).toMatch(/Manage Subscription/);
  });

  it.skipIf(skip)("a checkout is refused while Stripe holds a live subscription our records do not show yet", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const { body } = await t.checkout(ada, "Basic");
    // paid, but the webhooks have not arrived
    await t.fake.completeCheckout(body.sessionId, { webhooks: false });
    expect(await t.planOf(ada.id)).toBe("free");
    const again = await t.checkout(ada, "Pro");
    expect(again.res.status).toBe(409);
    expect(again.body.error?.code).toBe("billing.already_subscribed");
  });

  it.skipIf(skip)("two subscriptions paid in the same instant: the webhook keeps the older and cancels the newer", async () => {
    const t = await setup();
    const ada = await t.signUp();
    const tab1 = await t.checkout(ada, "Basic");
    const tab2 = await t.checkout(ada, "Ultimate");
    // both checkouts were paid before the first could be expired (the race the rule cannot close)
    t.fake.sessions.get(tab1.body.sessionId)!.status = "open";
    const older = await t.fake.completeCheckout(tab1.body.sessionId, { webhooks: false });
    // a minute older (Stripe's creation times are in seconds)
    older.created = Number(older.created) - 60;
    const newer = await t.fake.completeCheckout(tab2.body.sessionId);
    await t.fake.settle();
    expect(t.fake.subscriptions.get(String(older.id))?.status).not.toBe("canceled");
    expect(t.fake.subscriptions.get(String(newer.id))?.status).toBe("canceled");
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, String(newer.id)));
    expect(row?.status).toBe("canceled");
    expect(await t.planOf(ada.id)).toBe("basic");
    expect(t.log.lines.some((l) => String(l.msg).includes("a second live subscription was canceled"))).toBe(true);
  });

  it.skipIf(skip)("a subscription whose price this server does not sell is ignored and logged", async () => {
    const t = await setup({ prices: { STRIPE_PRICE_PRO: "price_elsewhere" } });
    const ada = await t.signUp();
    const { body } = await t.checkout(ada, "Basic");
    // the subscription Stripe reports carries a price we no longer map (changed in the Dashboard)
    t.fake.sessions.get(body.sessionId)!.line_items = [{ price: "price_fake_pro", quantity: "1" }];
    await t.fake.completeCheckout(body.sessionId);
    expect(await t.db.select().from(subscriptions)).toHaveLength(0);
    expect(t.log.lines.some((l) => String(l.msg).includes("its price is not one of the configured plans"))).toBe(true);
  });
});
