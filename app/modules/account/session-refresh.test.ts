import pino from "pino";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { loader as rootLoader } from "#app/root.tsx";
import { action as signupAction } from "#app/routes/signup.tsx";
import { sessions } from "#db/schema/index.ts";
import { cookieHeaderFrom, openConfirmationLink, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

/**
 * An active user stays logged in: once a day the session's expiry moves forward and every page's
 * root loader sends the renewed cookie back (decision 012), not only the database row.
 */
const logger = pino({ level: "silent" });
const DAY = 86_400_000;

describe.each(testDatabases)("session renewal on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;

  it.skipIf(skip)("a page view a few days after login renews the session cookie; a fresh session sends none", async () => {
    handle = await open();
    const accounts = testAccounts(handle.db);
    const context = { db: handle.db, logger, clientIp: "203.0.113.9", accounts, publicConfig: {} };
    await callRoute(
      signupAction as never,
      new Request(`${TEST_PUBLIC_URL}/signup`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_PUBLIC_URL },
        body: new URLSearchParams({ name: "Ada", email: "renew@example.com", password: "analytical-engine", returnTo: "/dashboard" }),
      }),
      context,
    );
    // the mailed link signs the new account in
    const cookie = cookieHeaderFrom(await openConfirmationLink(accounts, "renew@example.com"));
    const page = async () => {
      const result = (await rootLoader({ request: new Request(`${TEST_PUBLIC_URL}/`, { headers: { cookie } }), context, params: {} } as never)) as {
        data: { user: { email: string } | null };
        init: { headers: Headers } | null;
      };
      return { user: result.data.user, setCookies: new Headers(result.init?.headers).getSetCookie() };
    };

    // just logged in: nothing to renew
    const fresh = await page();
    expect(fresh.user?.email).toBe("renew@example.com");
    expect(fresh.setCookies).toEqual([]);

    // the session was last renewed three days ago (27 days left of 30)
    const [row] = await handle.db.select().from(sessions);
    await handle.db.update(sessions).set({ expiresAt: new Date(Date.now() + 27 * DAY), updatedAt: new Date(Date.now() - 3 * DAY) }).where(eq(sessions.id, row!.id));
    const later = await page();
    expect(later.user?.email).toBe("renew@example.com");
    const renewed = later.setCookies.find((c) => c.startsWith("vidfetch.session_token="));
    expect(renewed).toBeDefined();
    const maxAge = Number(/Max-Age=(\d+)/i.exec(renewed!)?.[1]);
    expect(maxAge).toBeGreaterThan(29 * 86_400);
    const [after] = await handle.db.select().from(sessions);
    expect(after!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * DAY);
  });
});
