import pino from "pino";
import { describe, expect, it } from "vitest";
import { action as dashboardAction } from "#app/routes/dashboard.tsx";
import { loader as exportLoader } from "#app/routes/dashboard-export.ts";
import { action as signupAction } from "#app/routes/signup.tsx";
import type { BillingServices } from "#app/modules/billing/billing-services.server.ts";
import { recordDownload } from "#app/modules/history/record-download.server.ts";
import { blogComments, downloadHistory, newsletterSubscribers, sessions, subscriptions, users } from "#db/schema/index.ts";
import { cookieHeaderFrom, formPostFromSite, insertActiveSubscription, openConfirmationLink, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import type { AccountServices } from "./account-services.server.ts";

/**
 * The terms promise deletion from the dashboard and the privacy policy a copy of one's data:
 * both, through the routes a browser uses.
 */
const logger = pino({ level: "silent" });
const ada = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical-engine" };

const post = formPostFromSite;

/** A Stripe that records cancellations, or refuses them. */
function fakeBilling(opts: { fail?: boolean } = {}) {
  const canceled: string[] = [];
  const billing = {
    stripe: {
      subscriptions: {
        cancel: async (id: string) => {
          if (opts.fail) throw Object.assign(new Error("Stripe is down"), { code: "api_connection_error" });
          canceled.push(id);
          return { id, status: "canceled" };
        },
      },
    },
  } as unknown as BillingServices;
  return { billing, canceled };
}

describe.each(testDatabases)("your data on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  let accounts: AccountServices & { outbox: Array<{ to: string; subject: string; text: string }> };
  const ctx = (billing: BillingServices | null = null) => ({ db: handle!.db, logger, clientIp: "203.0.113.7", accounts, billing, config: { PUBLIC_URL: TEST_PUBLIC_URL } });

  async function signedInAda(): Promise<{ cookie: string; userId: string }> {
    handle = await open();
    accounts = testAccounts(handle.db);
    await callRoute(signupAction as never, post("/signup", { ...ada, returnTo: "/dashboard" }), ctx());
    const cookie = cookieHeaderFrom(await openConfirmationLink(accounts, ada.email));
    const [user] = await handle.db.select().from(users);
    // what the account has gathered: a download, a comment written with its email
    await recordDownload(handle.db, { id: "dl_1", caller: { kind: "free", userId: user!.id }, format: "mp4-720", title: "A lecture", bytes: 1234, complete: true });
    await handle.db.insert(blogComments).values({ articleSlug: "some-article", name: "Ada", email: "ADA@example.com", content: "Thanks!", status: "approved", ipHash: "h", visitorId: "v" });
    await handle.db.insert(newsletterSubscribers).values({ email: "ada@example.com", createdAt: new Date("2026-10-01T00:00:00Z"), confirmedAt: new Date("2026-10-02T00:00:00Z") });
    return { cookie, userId: user!.id };
  }

  it.skipIf(skip)("exports everything about the account as a JSON file, only to its owner", async () => {
    const { cookie } = await signedInAda();
    const res = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`, { headers: { cookie } }), ctx())) as Response;
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="my-account-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const data = (await res.json()) as Record<string, unknown> & { account: { email: string }; downloadHistory: Array<{ title: string }>; blogComments: Array<{ content: string }>; sessions: unknown[] };
    expect(data.account).toMatchObject({ name: ada.name, email: ada.email, emailConfirmed: true });
    expect(data.downloadHistory.map((h) => h.title)).toEqual(["A lecture"]);
    expect(data.blogComments.map((c) => c.content)).toEqual(["Thanks!"]);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.newsletter).toEqual({ subscribed: true, enteredAt: "2026-10-01T00:00:00.000Z", confirmedAt: "2026-10-02T00:00:00.000Z" });
    // no password hash, no other account's data
    expect(JSON.stringify(data)).not.toMatch(/password|\$argon|scrypt/i);
    const anonymous = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`), ctx())) as Response;
    expect(anonymous.status).toBe(401);
  });

  it.skipIf(skip)("a wrong password deletes nothing", async () => {
    const { cookie } = await signedInAda();
    const res = await unwrap(await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: "not-the-password" }, cookie), ctx()));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ ok: false, message: "That password is not right, so your account was not deleted.", fields: ["password"] });
    expect(await handle!.db.$count(users)).toBe(1);
  });

  it.skipIf(skip)("deletes the account: subscription canceled at Stripe, every session and the history gone, comments anonymised", async () => {
    const { cookie, userId } = await signedInAda();
    await insertActiveSubscription(handle!.db, userId, "pro");
    const { billing, canceled } = fakeBilling();
    const res = (await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: ada.password }, cookie), ctx(billing))) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?notice=account-deleted");
    expect(res.headers.get("clear-site-data")).toBe('"cache"');
    expect(res.headers.getSetCookie().some((c) => /max-age=0|expires=Thu, 01 Jan 1970/i.test(c))).toBe(true);
    expect(canceled).toEqual([`sub_${userId}`]);
    for (const table of [users, sessions, downloadHistory, subscriptions]) expect(await handle!.db.$count(table)).toBe(0);
    const [comment] = await handle!.db.select().from(blogComments);
    expect(comment).toMatchObject({ name: "Deleted user", email: "", ipHash: null, visitorId: null, content: "Thanks!" });
    // the newsletter is a consent of its own, ended by its own link (the privacy policy says so)
    expect(await handle!.db.$count(newsletterSubscribers)).toBe(1);
    // the old session cookie opens nothing any more
    const after = (await callRoute(exportLoader as never, new Request(`${TEST_PUBLIC_URL}/dashboard/export`, { headers: { cookie } }), ctx())) as Response;
    expect(after.status).toBe(401);
  });

  it.skipIf(skip)("keeps the account when Stripe cannot cancel its subscription", async () => {
    const { cookie, userId } = await signedInAda();
    await insertActiveSubscription(handle!.db, userId, "pro");
    const res = await unwrap(await callRoute(dashboardAction as never, post("/dashboard?tab=settings", { intent: "delete-account", password: ada.password }, cookie), ctx(fakeBilling({ fail: true }).billing)));
    expect(res.status).toBe(502);
    expect(await handle!.db.$count(users)).toBe(1);
    expect(await handle!.db.$count(subscriptions)).toBe(1);
  });
});
