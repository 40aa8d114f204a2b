import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { action as cancelAction, loader as cancelLoader } from "#app/routes/billing-cancel.ts";
import { action as portalAction } from "#app/routes/billing-portal.ts";
import { loader as dashboardLoader } from "#app/routes/dashboard.tsx";
import { loader as paymentLoader } from "#app/routes/payment-success.tsx";
import { action as premiumAction, loader as premiumLoader } from "#app/routes/premium.tsx";
import { startFakeStripe, type FakeStripe } from "#tests/mocks/stripe.ts";
import { cookieHeaderFrom, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { createBillingServices, type BillingServices } from "./billing-services.server.ts";
import { getUserPlan } from "./user-plan.server.ts";

/** The page routes of plans and payments, called the way the router calls them. */
const logger = pino({ level: "silent" });

const run = callRoute;
function post(path: string, fields: Record<string, string>, cookie = "") {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (cookie) headers.cookie = cookie;
  return new Request(`${TEST_PUBLIC_URL}${path}`, { method: "POST", body: new URLSearchParams(fields), headers });
}
const get = (path: string, cookie = "") => new Request(`${TEST_PUBLIC_URL}${path}`, { headers: cookie ? { cookie } : {} });

describe.each(testDatabases)("billing pages on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  let fake: FakeStripe | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = handle = undefined;
  });

  async function setup(opts: { payments?: boolean } = {}) {
    handle = await open();
    const accounts = testAccounts(handle.db);
    fake = await startFakeStripe();
    const billing: BillingServices | null = opts.payments === false ? null : await createBillingServices({ ...fake.env, PUBLIC_URL: TEST_PUBLIC_URL });
    const ctx = { db: handle.db, logger, accounts, billing, clientIp: "203.0.113.7" };
    const res = await accounts.auth.api.signUpEmail({ body: { name: "Ada", email: `ada-${Date.now()}@example.com`, password: "analytical-engine" }, asResponse: true });
    const userId = ((await res.clone().json()) as { user: { id: string } }).user.id;
    return { ctx, cookie: cookieHeaderFrom(res), userId, db: handle.db, fake };
  }

  it.skipIf(skip)("premium: logged out, subscribing goes to /login with Login Required and comes back to the plan", async () => {
    const t = await setup();
    const res = (await run(premiumAction as never, post("/premium", { plan: "ultimate" }), t.ctx)) as Response;
    expect(res.status).toBe(303);
    const to = new URL(res.headers.get("location") ?? "", TEST_PUBLIC_URL);
    expect(to.pathname).toBe("/login");
    expect(to.searchParams.get("notice")).toBe("login-required");
    expect(to.searchParams.get("returnTo")).toBe("/premium?plan=ultimate&checkout=continue");

    const page = (await run(premiumLoader as never, get("/premium?plan=ultimate&checkout=continue", t.cookie), t.ctx)) as Record<string, unknown>;
    expect(page).toMatchObject({ loggedIn: true, currentPlan: "free", paymentsEnabled: true, selected: "ultimate", continueCheckout: true });
  });

  it.skipIf(skip)("premium: logged in, a 303 to Stripe Checkout; pay, then /payment-success verifies and the plan is shown", async () => {
    const t = await setup();
    const res = (await run(premiumAction as never, post("/premium", { plan: "pro" }, t.cookie), t.ctx)) as Response;
    expect(res.status).toBe(303);
    const checkoutUrl = res.headers.get("location") ?? "";
    expect(checkoutUrl).toMatch(new RegExp(`^${t.fake.origin}/c/pay/cs_test_`));
    const sessionId = checkoutUrl.split("/").pop() ?? "";

    // before paying: an activation error, nothing stored
    const early = (await run(paymentLoader as never, get(`/payment-success?session_id=${sessionId}`, t.cookie), t.ctx)) as { outcome: unknown };
    expect(early.outcome).toMatchObject({ state: "error", noSession: false });
    expect((await getUserPlan(t.db, t.userId)).plan).toBe("free");

    await t.fake.completeCheckout(sessionId, { webhooks: false });
    const done = (await run(paymentLoader as never, get(`/payment-success?session_id=${sessionId}`, t.cookie), t.ctx)) as { outcome: unknown };
    expect(done.outcome).toEqual({ state: "success", plan: "pro" });
    expect((await getUserPlan(t.db, t.userId)).plan).toBe("pro");
    const page = (await run(premiumLoader as never, get("/premium", t.cookie), t.ctx)) as Record<string, unknown>;
    expect(page).toMatchObject({ currentPlan: "pro", cancelsAt: null });
  });

  it.skipIf(skip)("payment-success: logged out goes to /login; no session id says so", async () => {
    const t = await setup();
    const out = (await run(paymentLoader as never, get("/payment-success?session_id=cs_test_1"), t.ctx)) as Response;
    const to = new URL(out.headers.get("location") ?? "", TEST_PUBLIC_URL);
    expect(to.pathname).toBe("/login");
    expect(to.searchParams.get("notice")).toBe("payment-auth-required");
    expect(to.searchParams.get("returnTo")).toBe("/payment-success?session_id=cs_test_1");
    const none = (await run(paymentLoader as never, get("/payment-success", t.cookie), t.ctx)) as { outcome: unknown };
    expect(none.outcome).toEqual({ state: "error", noSession: true, message: "No payment session found. Please try the checkout process again." });
  });

  it.skipIf(skip)("without Stripe keys: plans shown, subscribing says payments are not configured (503, no crash)", async () => {
    const t = await setup({ payments: false });
    const page = (await run(premiumLoader as never, get("/premium", t.cookie), t.ctx)) as Record<string, unknown>;
    expect(page.paymentsEnabled).toBe(false);
    const res = (await run(premiumAction as never, post("/premium", { plan: "basic" }, t.cookie), t.ctx)) as { data: { message: string }; init: { status: number } };
    expect(res.init.status).toBe(503);
    expect(res.data.message).toMatch(/Payments are not configured on this server/);
    const portal = (await run(portalAction as never, post("/billing/portal", {}, t.cookie), t.ctx)) as Response;
    expect(portal.headers.get("location")).toBe("/dashboard?notice=payments-unavailable");
  });

  it.skipIf(skip)("portal and cancel: a user without a subscription gets a clear answer; a subscriber gets the portal and cancels at period end", async () => {
    const t = await setup();
    for (const action of [portalAction, cancelAction]) {
      const res = (await run(action as never, post("/billing/x", {}, t.cookie), t.ctx)) as Response;
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard?notice=no-subscription");
    }
    const dash = (await run(dashboardLoader as never, get("/dashboard?notice=no-subscription", t.cookie), t.ctx)) as { notice: string };
    expect(dash.notice).toBe("no-subscription");
    const anon = (await run(cancelAction as never, post("/billing/cancel", {}), t.ctx)) as Response;
    expect(anon.headers.get("location")).toMatch(/^\/login\?/);
    expect(((await run(cancelLoader as never, get("/billing/cancel", t.cookie), t.ctx)) as Response).status).toBe(405);

    const checkout = (await run(premiumAction as never, post("/premium", { plan: "basic" }, t.cookie), t.ctx)) as Response;
    const sessionId = checkout.headers.get("location")?.split("/").pop() ?? "";
    await t.fake.completeCheckout(sessionId, { webhooks: false });
    await run(paymentLoader as never, get(`/payment-success?session_id=${sessionId}`, t.cookie), t.ctx);
    const portal = (await run(portalAction as never, post("/billing/portal", {}, t.cookie), t.ctx)) as Response;
    expect(portal.headers.get("location")).toMatch(new RegExp(`^${t.fake.origin}/p/session/bps_`));

    const cancel = (await run(cancelAction as never, post("/billing/cancel", {}, t.cookie), t.ctx)) as Response;
    expect(cancel.headers.get("location")).toBe("/dashboard?notice=subscription-canceled");
    await t.fake.settle();
    const plan = await getUserPlan(t.db, t.userId);
    expect(plan.plan).toBe("basic");
    expect(plan.subscription?.cancelAtPeriodEnd).toBe(true);
  });
});
