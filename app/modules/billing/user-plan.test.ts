import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "#db/client.ts";
import { subscriptions, users } from "#db/schema/index.ts";
import { getUserPlan } from "./user-plan.server.ts";

let handle: DatabaseHandle;
const now = new Date("2026-11-24T12:00:00Z");
const day = 86_400_000;

beforeAll(async () => {
  handle = await openDatabase({ dataDir: null });
  await handle.db.insert(users).values([
    { id: "u1", name: "A", email: "a@example.com" },
    { id: "u2", name: "B", email: "b@example.com" },
  ]);
});
afterAll(() => handle.close());

function sub(id: string, userId: string, plan: string, status: string, periodEnd: Date | null) {
  return { id, userId, stripeCustomerId: `cus_${userId}`, priceId: `price_${plan}`, plan, status, currentPeriodEnd: periodEnd };
}

describe("getUserPlan", () => {
  it("is free without a subscription", async () => {
    expect((await getUserPlan(handle.db, "u1", now)).plan).toBe("free");
  });

  it("takes the best entitled subscription whose period has not ended", async () => {
    await handle.db.insert(subscriptions).values([
      sub("sub_1", "u1", "basic", "active", new Date(now.getTime() + 10 * day)),
      sub("sub_2", "u1", "ultimate", "canceled", new Date(now.getTime() + 10 * day)),
      sub("sub_3", "u1", "pro", "active", new Date(now.getTime() - day)),
      sub("sub_4", "u2", "pro", "incomplete", new Date(now.getTime() + 10 * day)),
    ]);
    const u1 = await getUserPlan(handle.db, "u1", now);
    expect(u1.plan).toBe("basic");
    expect(u1.subscription?.id).toBe("sub_1");
    expect((await getUserPlan(handle.db, "u2", now)).plan).toBe("free");
  });

  it("counts a trial and a renewal being retried", async () => {
    await handle.db.insert(subscriptions).values(sub("sub_5", "u2", "pro", "trialing", new Date(now.getTime() + 7 * day)));
    expect((await getUserPlan(handle.db, "u2", now)).plan).toBe("pro");
  });
});
