import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send, signUpConfirmed } from "./support/accounts.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27 §13 from outside, against the production server and its built-in fake Stripe
 * (MOCKS=true): two checkout tabs opened one after the other, both "paid", give one
 * subscription; a third checkout once subscribed is refused and points to Manage Subscription.
 */
let server: AttackServer;
let cookie = "";

beforeAll(async () => {
  server = await startServer({ preferredPort: 3337 });
  cookie = await signUpConfirmed(server, { name: "Two Tabs", email: `two-tabs-${Date.now()}@example.com`, password: "two tabs both paid 27" });
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

/** The plan form's post; the fake Stripe's checkout page it leads to, if any. */
async function checkout(plan: string) {
  const answer = await send(server, "/premium", { form: { plan }, cookie });
  return { ...answer, checkoutUrl: answer.status === 303 ? answer.location : null };
}

/** Press Pay on a fake Stripe checkout page: the status of its answer. */
async function pay(checkoutUrl: string): Promise<number> {
  const res = await fetch(`${checkoutUrl}/pay`, { method: "POST", redirect: "manual" });
  await res.arrayBuffer();
  return res.status;
}

describe("two checkout tabs", () => {
  it("only the newest checkout can be paid, and a third is refused once subscribed", async () => {
    const tab1 = await checkout("basic");
    // Stripe counts creation in seconds: the second tab is opened a moment later
    await sleep(1100);
    const tab2 = await checkout("pro");
    expect(tab1.checkoutUrl, `the first tab answered ${tab1.status}`).toMatch(/\/c\/pay\/cs_test_/);
    expect(tab2.checkoutUrl, `the second tab answered ${tab2.status}`).toMatch(/\/c\/pay\/cs_test_/);

    expect(await pay(tab1.checkoutUrl!)).toBe(410);
    expect(await pay(tab2.checkoutUrl!)).toBe(303);

    // the webhook arrives; the dashboard shows Pro
    let dashboard = "";
    for (let i = 0; i < 50 && !/Pro Plan|Pro User|\bPro\b/.test(dashboard); i++) {
      dashboard = (await send(server, "/dashboard", { cookie })).text;
      await sleep(100);
    }
    expect(dashboard).toMatch(/\bPro\b/);
    expect(dashboard).not.toMatch(/\bBasic (Plan|User)\b/);

    const tab3 = await checkout("ultimate");
    expect(tab3.status).toBe(409);
    expect(tab3.text).toContain("Manage Subscription");
  }, 60_000);
});
