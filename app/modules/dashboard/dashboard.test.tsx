/**
 * The dashboard's server side and the root loader's ad decision, through the route modules as
 * the router runs them, on a test database with better-auth.
 */
import pino from "pino";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AdSlot } from "#app/components/layout/ad-slot.tsx";
import { recordDownload } from "#app/modules/history/record-download.server.ts";
import { loader as rootLoader } from "#app/root.tsx";
import { action as dashboardAction, loader as dashboardLoader } from "#app/routes/dashboard.tsx";
import { users } from "#db/schema/index.ts";
import { loadConfig, publicConfig } from "#server/config.ts";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { settleBackgroundWork } from "#app/modules/account/background-work.server.ts";

const logger = pino({ level: "silent" });
// an ad provider configured, so the slots would render for anyone who should see ads
const adsConfig = publicConfig(loadConfig({ LOG_LEVEL: "silent", AD_PROVIDER: "adsense", AD_CLIENT: "ca-pub-1234567890", AD_SLOTS: "header=111,footer=222" }));

function request(path: string, cookie = "", init: RequestInit = {}) {
  return new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), origin: TEST_PUBLIC_URL, ...(init.headers as Record<string, string>) } });
}
function form(path: string, cookie: string, fields: Record<string, string>) {
  return request(path, cookie, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } });
}

const run = callRoute;

/** The server render of a header ad slot under the root loader's data. */
function renderHeaderAd(rootData: unknown): string {
  const router = createMemoryRouter([{ id: "root", path: "/", element: <AdSlot placement="header" />, loader: () => rootData }], {
    hydrationData: { loaderData: { root: rootData } },
  });
  return renderToString(<RouterProvider router={router} />);
}

describe.each(testDatabases)("dashboard on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  let handle: TestDatabase | undefined;
  let accounts: ReturnType<typeof testAccounts>;
  const ctx = () => ({ db: handle!.db, logger, clientIp: "203.0.113.7", accounts, publicConfig: adsConfig });

  async function signUp(name: string, email: string, plan?: "basic" | "pro") {
    const res = await accounts.auth.api.signUpEmail({ body: { name, email, password: "correct horse battery" }, asResponse: true });
    const { user } = (await res.clone().json()) as { user: { id: string } };
    if (plan) {
      const start = new Date("2026-11-01T10:00:00Z");
      await insertActiveSubscription(handle!.db, user.id, plan, { start, createdAt: start, end: new Date("2099-12-01T10:00:00Z") });
    }
    return { cookie: cookieHeaderFrom(res), userId: user.id };
  }

  it.skipIf(skip)("no ad slot is rendered for a paying user; visitors and free users keep them", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const free = await signUp("Free", "free@example.com");
    const basic = await signUp("Basic", "basic@example.com", "basic");
    const html: Record<string, string> = {};
    for (const [who, cookie] of [["visitor", ""], ["free", free.cookie], ["basic", basic.cookie]] as const) {
      const { body } = await unwrap(await run(rootLoader as never, request("/", cookie), ctx()));
      html[who] = renderHeaderAd(body as never);
    }
    expect(html.visitor).toContain('data-ad-placement="header"');
    expect(html.free).toContain('data-ad-placement="header"');
    expect(html.basic).not.toContain("data-ad-placement");
    expect(html.basic).not.toContain("adsbygoogle");
  });

  it.skipIf(skip)("the plan card: free, or premium with plan, start and next billing dates", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const free = await signUp("Free", "free@example.com");
    const pro = await signUp("Pro", "pro@example.com", "pro");
    const freeDash = (await run(dashboardLoader as never, request("/dashboard", free.cookie), ctx())) as { plan: unknown; premiumFormats: boolean; tab: string };
    expect(freeDash).toMatchObject({ plan: null, premiumFormats: false, tab: "downloads" });
    const proDash = (await run(dashboardLoader as never, request("/dashboard?tab=settings", pro.cookie), ctx())) as { plan: unknown; premiumFormats: boolean; tab: string };
    expect(proDash).toMatchObject({
      plan: { name: "Pro", startDate: "2026-11-01T10:00:00.000Z", nextBillingDate: "2099-12-01T10:00:00.000Z", endsAtPeriodEnd: false },
      premiumFormats: true,
      tab: "settings",
    });
  });

  it.skipIf(skip)("history: the user's rows only, newest first, ten a page", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const me = await signUp("Me", "me@example.com");
    const other = await signUp("Other", "other@example.com");
    for (let i = 0; i < 12; i++) {
      const at = new Date(Date.UTC(2026, 10, 1 + i));
      await recordDownload(handle.db, { id: `dl_${i}`, caller: { kind: "free", userId: me.userId }, format: "mp4-720", title: `Clip ${i}`, bytes: 1000 * i, complete: i % 2 === 0 }, at);
    }
    await recordDownload(handle.db, { id: "dl_other", caller: { kind: "free", userId: other.userId }, format: "mp3-128", title: "Not mine", bytes: 1, complete: true });
    type Hist = { history: { rows: Array<{ title: string; status: string; formatLabel: string }>; page: number; pageCount: number; total: number } };
    const first = (await run(dashboardLoader as never, request("/dashboard?tab=history", me.cookie), ctx())) as Hist;
    expect(first.history).toMatchObject({ page: 1, pageCount: 2, total: 12 });
    expect(first.history.rows.map((r) => r.title)).toEqual(["Clip 11", "Clip 10", "Clip 9", "Clip 8", "Clip 7", "Clip 6", "Clip 5", "Clip 4", "Clip 3", "Clip 2"]);
    expect(first.history.rows[0]).toMatchObject({ status: "failed", formatLabel: "MP4 720p HD" });
    expect(first.history.rows[1]).toMatchObject({ status: "done" });
    const second = (await run(dashboardLoader as never, request("/dashboard?tab=history&page=2", me.cookie), ctx())) as Hist;
    expect(second.history.rows.map((r) => r.title)).toEqual(["Clip 1", "Clip 0"]);
    // another account cannot take over a row by reusing its id
    await recordDownload(handle.db, { id: "dl_0", caller: { kind: "free", userId: other.userId }, format: "mp3-128", title: "Hijack", bytes: 1, complete: false });
    const again = (await run(dashboardLoader as never, request("/dashboard?tab=history&page=2", me.cookie), ctx())) as Hist;
    expect(again.history.rows.at(-1)).toMatchObject({ title: "Clip 0", status: "done" });
  });

  it.skipIf(skip)("settings: the name is saved at once; a new email only after its mailed link is opened", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const me = await signUp("Ada", "ada@example.com");
    accounts.outbox.length = 0;

    const bad = (await run(dashboardAction as never, form("/dashboard?tab=settings", me.cookie, { intent: "profile", name: " ", email: "ada@example.com" }), ctx())) as { data: unknown; init: { status: number } };
    expect(bad.init.status).toBe(400);
    expect(bad.data).toMatchObject({ ok: false, message: "Please fill in all fields", fields: ["name"] });

    const saved = (await run(dashboardAction as never, form("/dashboard?tab=settings", me.cookie, { intent: "profile", name: "Ada King", email: "ada@example.com" }), ctx())) as { data: unknown };
    expect(saved.data).toMatchObject({ ok: true, title: "Profile Updated" });
    expect((await handle.db.select().from(users))[0]).toMatchObject({ name: "Ada King", email: "ada@example.com" });
    expect(accounts.outbox).toHaveLength(0);

    const changed = (await run(dashboardAction as never, form("/dashboard?tab=settings", me.cookie, { intent: "profile", name: "Ada King", email: "countess@example.com" }), ctx())) as {
      data: { ok: boolean; title: string; message: string };
    };
    expect(changed.data).toMatchObject({ ok: true, title: "Profile Updated" });
    expect(changed.data.message).toContain("countess@example.com");
    // not changed yet: the link goes to the new address (mail is sent after the answer)
    expect((await handle.db.select().from(users))[0]?.email).toBe("ada@example.com");
    await settleBackgroundWork();
    expect(accounts.outbox).toHaveLength(1);
    expect(accounts.outbox[0]?.to).toBe("countess@example.com");
    const url = /http:\/\/localhost:3000\/api\/auth\/verify-email\?\S+/.exec(accounts.outbox[0]!.text)?.[0];
    const opened = await accounts.auth.handler(new Request(url!, { headers: { cookie: me.cookie } }));
    expect(opened.status).toBe(302);
    expect((await handle.db.select().from(users))[0]?.email).toBe("countess@example.com");
  });

  it.skipIf(skip)("a visitor is sent to log in, for the page and for the form", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const page = (await run(dashboardLoader as never, request("/dashboard?tab=history"), ctx())) as Response;
    expect(page.headers.get("location")).toBe("/login?returnTo=%2Fdashboard&notice=auth-required");
    const post = (await run(dashboardAction as never, form("/dashboard", "", { intent: "profile", name: "X", email: "x@example.com" }), ctx())) as Response;
    expect(post.status).toBe(302);
  });
});
