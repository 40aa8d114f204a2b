/**
 * The API tab (issue 31 §1): what each plan is shown, the key shown once in the create's answer
 * and never in the loader's data, and the forms' refusals, through the dashboard route on a test
 * database with better-auth.
 */
import pino from "pino";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { action as dashboardAction, loader as dashboardLoader } from "#app/routes/dashboard.tsx";
import { loadConfig, publicConfig } from "#server/config.ts";
import { cookieHeaderFrom, insertActiveSubscription, testAccounts, TEST_PUBLIC_URL } from "#tests/support/accounts.ts";
import { callRoute, unwrap } from "#tests/support/route-context.ts";
import { testDatabases, withTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { ApiKeysPanel } from "./api-keys-panel.tsx";
import type { ApiKeyFormResult, ApiKeysView } from "./dashboard-data.ts";

function render(view: ApiKeysView, actionResult?: ApiKeyFormResult): string {
  const router = createMemoryRouter([{ path: "/", element: <ApiKeysPanel view={view} actionResult={actionResult} /> }]);
  return renderToString(<RouterProvider router={router} />);
}

const ultimateView: ApiKeysView = {
  canUse: true,
  upgradeText: "",
  keys: [
    { id: "k1", name: "Build server", prefix: "vf_AbCdEfGh", createdAt: "2026-11-02T10:00:00.000Z", lastUsedAt: "2026-11-20T08:00:00.000Z", requestsThisMonth: 42 },
    { id: "k2", name: "Laptop", prefix: "vf_ZyXwVuTs", createdAt: "2026-11-03T10:00:00.000Z", lastUsedAt: null, requestsThisMonth: 0 },
  ],
  maxKeys: 10,
  perMinute: 60,
  siteUrl: "https://vidfetch.example",
  whiteLabel: { senderName: null, accountName: "Key Owner" },
};

describe("ApiKeysPanel", () => {
  it("renders the create form, each key with its prefix, dates, use and its own Revoke, the count and the example", () => {
    const html = render(ultimateView);
    expect(html).toMatch(/for="key-name"[^>]*>Key name/);
    expect(html).toMatch(/<input[^>]*maxLength="60"/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Create key/);
    expect(html).toContain("vf_AbCdEfGh…");
    expect(html).toContain("Nov 2, 2026");
    expect(html).toContain("Nov 20, 2026");
    expect(html).toContain("Never");
    expect(html).toMatch(/data-testid="api-key-requests">42</);
    expect(html).toContain('aria-label="Revoke key Build server"');
    expect(html).toContain('aria-label="Revoke key Laptop"');
    expect(html).toMatch(/name="keyId" value="k1"/);
    expect(html).toContain("You have <!-- -->2<!-- --> of <!-- -->10<!-- --> keys.");
    expect(html).toContain("https://vidfetch.example/api/v1/resolve");
    expect(html).toContain("-H &quot;Authorization: Bearer YOUR_KEY&quot;");
    expect(html).toContain("Each key can make <!-- -->60<!-- --> requests a minute");
    // nothing to copy until a key was just created
    expect(html).not.toContain("it will not be shown again");
  });

  it("shows a key just created once, selectable, with the sentence to copy it now", () => {
    const html = render(ultimateView, { ok: true, intent: "create-key", title: "Key created", message: "", createdKey: { id: "k3", name: "CI", key: "vf_secretsecret" } });
    expect(html).toMatch(/<input[^>]*readOnly=""[^>]*value="vf_secretsecret"/);
    expect(html).toContain('aria-label="API key CI"');
    expect(html).toMatch(/role="status"[^>]*>Copy this key now: it will not be shown again\./);
  });

  it("shows a refusal where it happened: the create's by the form, the revoke's above the list", () => {
    const created = render(ultimateView, { ok: false, intent: "create-key", title: "Error", message: "Give the key a name of 1 to 60 characters.", fields: [] });
    expect(created).toMatch(/role="alert"[^>]*>Give the key a name of 1 to 60 characters\./);
    expect(created).toContain('aria-invalid="true"');
    const revoked = render(ultimateView, { ok: false, intent: "revoke-key", title: "Error", message: "We couldn't find that API key.", fields: [] });
    expect(revoked).toMatch(/role="alert"[^>]*>We couldn&#x27;t find that API key\./);
    expect(revoked).not.toContain('aria-invalid="true"');
  });

  it("offers the white label's sender name, empty meaning the account's name, and shows the save's answer by it", () => {
    const html = render(ultimateView);
    expect(html).toMatch(/for="white-label-sender"[^>]*>Sender name/);
    const field = /<input[^>]*id="white-label-sender"[^>]*>/.exec(html)?.[0] ?? "";
    expect(field).toContain('name="senderName"');
    expect(field).toContain('maxLength="60"');
    expect(field).toContain('placeholder="Key Owner"');
    expect(html).toContain("Leave it empty to use your account’s name (<!-- -->Key Owner<!-- -->).");
    const saved = render({ ...ultimateView, whiteLabel: { senderName: "Acme Media", accountName: "Key Owner" } }, { ok: true, intent: "white-label", title: "Sender name saved", message: "Sent as Acme Media.", createdKey: null });
    expect(/<input[^>]*id="white-label-sender"[^>]*>/.exec(saved)?.[0]).toContain('value="Acme Media"');
    expect(saved).toMatch(/role="status"[^>]*>Sent as Acme Media\./);
    const refused = render(ultimateView, { ok: false, intent: "white-label", title: "Error", message: "Give a sender name of 1 to 60 characters.", fields: [] });
    expect(refused).toMatch(/role="alert"[^>]*>Give a sender name/);
    // a plan without the white label is not offered it
    expect(render({ ...ultimateView, whiteLabel: null })).not.toContain("senderName");
  });

  it("shows a plan without API access the reason and the plans page, with no form", () => {
    const html = render({ ...ultimateView, canUse: false, keys: [], perMinute: null, upgradeText: "API access comes with the Ultimate plan. Subscribe to use it." });
    expect(html).toContain("API access comes with the Ultimate plan. Subscribe to use it.");
    expect(html).toContain('href="/premium"');
    expect(html).not.toContain("Create key");
    expect(html).not.toContain("<form");
  });

  it("lists the keys kept from an earlier plan with API access, to revoke them, but offers no new one", () => {
    const html = render({ ...ultimateView, canUse: false, perMinute: null, upgradeText: "API access comes with the Ultimate plan. Change your plan to use it." });
    expect(html).toContain("API access comes with the Ultimate plan. Change your plan to use it.");
    expect(html).toContain('aria-label="Revoke key Build server"');
    expect(html).not.toContain("Create key");
    expect(html).not.toContain("/api/v1/resolve");
  });
});

describe.each(testDatabases)("the API tab on $name", (variant) => {
  const { skip, open } = withTestDatabase(variant);
  const logger = pino({ level: "silent" });
  let handle: TestDatabase | undefined;
  let accounts: ReturnType<typeof testAccounts>;
  const ctx = () => ({ db: handle!.db, logger, clientIp: "203.0.113.7", accounts, publicConfig: publicConfig(loadConfig({ LOG_LEVEL: "silent" })) });

  function request(path: string, cookie: string, init: RequestInit = {}) {
    return new Request(`${TEST_PUBLIC_URL}${path}`, { ...init, headers: { cookie, origin: TEST_PUBLIC_URL, ...(init.headers as Record<string, string>) } });
  }
  const post = (cookie: string, fields: Record<string, string>) =>
    callRoute(dashboardAction as never, request("/dashboard?tab=api", cookie, { method: "POST", body: new URLSearchParams(fields), headers: { "content-type": "application/x-www-form-urlencoded" } }), ctx()).then(unwrap);
  const apiTab = async (cookie: string) => (await callRoute(dashboardLoader as never, request("/dashboard?tab=api", cookie), ctx())) as { apiKeys: ApiKeysView };

  async function signUp(email: string, plan?: "pro" | "ultimate") {
    const res = await accounts.auth.api.signUpEmail({ body: { name: "Key Owner", email, password: "correct horse battery" }, asResponse: true });
    const { user } = (await res.clone().json()) as { user: { id: string } };
    if (plan) await insertActiveSubscription(handle!.db, user.id, plan);
    return cookieHeaderFrom(res);
  }

  it.skipIf(skip)("Ultimate creates a key, sees it once in the answer, then only its prefix in the list; revoking it twice says it is gone", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const cookie = await signUp("ultimate@example.com", "ultimate");
    expect((await apiTab(cookie)).apiKeys).toMatchObject({ canUse: true, keys: [], maxKeys: 10, perMinute: 60, siteUrl: TEST_PUBLIC_URL.replace(/\/+$/, "") });

    const created = await post(cookie, { intent: "create-key", name: "  Build server " });
    expect(created.status).toBe(200);
    const answer = created.body as Extract<ApiKeyFormResult, { ok: true }>;
    expect(answer).toMatchObject({ ok: true, intent: "create-key", createdKey: { name: "Build server" } });
    const key = answer.createdKey!.key;
    expect(key).toMatch(/^vf_/);

    const tab = await apiTab(cookie);
    expect(tab.apiKeys.keys).toEqual([expect.objectContaining({ id: answer.createdKey!.id, name: "Build server", prefix: key.slice(0, 11), lastUsedAt: null, requestsThisMonth: 0 })]);
    expect(JSON.stringify(tab)).not.toContain(key);

    const revoked = await post(cookie, { intent: "revoke-key", keyId: answer.createdKey!.id });
    expect(revoked.body).toMatchObject({ ok: true, intent: "revoke-key", createdKey: null });
    expect((await apiTab(cookie)).apiKeys.keys).toEqual([]);
    const again = await post(cookie, { intent: "revoke-key", keyId: answer.createdKey!.id });
    expect(again).toEqual({ status: 404, body: { ok: false, intent: "revoke-key", title: "Error", message: "We couldn't find that API key.", fields: [] } });
  });

  it.skipIf(skip)("a name the key cannot have, and another user's key, are refused with their words", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const mine = await signUp("mine@example.com", "ultimate");
    const theirs = await signUp("theirs@example.com", "ultimate");
    expect(await post(mine, { intent: "create-key", name: "x".repeat(61) })).toMatchObject({ status: 400, body: { ok: false, intent: "create-key", message: "Give the key a name of 1 to 60 characters." } });
    const other = (await post(theirs, { intent: "create-key", name: "Theirs" })).body as Extract<ApiKeyFormResult, { ok: true }>;
    expect(await post(mine, { intent: "revoke-key", keyId: other.createdKey!.id })).toMatchObject({ status: 404, body: { ok: false } });
    expect((await apiTab(theirs)).apiKeys.keys).toHaveLength(1);
  });

  it.skipIf(skip)("Ultimate saves a sender name, clears it back to the account's name; a name that could pass for an address is refused; Pro cannot set one", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const cookie = await signUp("brand@example.com", "ultimate");
    expect((await apiTab(cookie)).apiKeys.whiteLabel).toEqual({ senderName: null, accountName: "Key Owner" });
    expect(await post(cookie, { intent: "white-label", senderName: "  Acme   Media " })).toMatchObject({
      status: 200,
      body: { ok: true, intent: "white-label", message: "Mails about jobs made with your API keys are now sent as Acme Media." },
    });
    expect((await apiTab(cookie)).apiKeys.whiteLabel).toEqual({ senderName: "Acme Media", accountName: "Key Owner" });
    for (const bad of ["Acme <x@evil.example>", "a@b.example", "Line\r\nBcc: x@y.example", "x".repeat(61)]) {
      expect(await post(cookie, { intent: "white-label", senderName: bad })).toMatchObject({ status: 400, body: { ok: false, intent: "white-label", message: expect.stringContaining("Give a sender name") } });
    }
    expect((await apiTab(cookie)).apiKeys.whiteLabel?.senderName).toBe("Acme Media");
    expect(await post(cookie, { intent: "white-label", senderName: "" })).toMatchObject({ status: 200, body: { ok: true, message: "Mails about jobs made with your API keys are now sent under your account's name." } });
    expect((await apiTab(cookie)).apiKeys.whiteLabel?.senderName).toBeNull();

    const pro = await signUp("pro-brand@example.com", "pro");
    expect((await apiTab(pro)).apiKeys.whiteLabel).toBeNull();
    expect(await post(pro, { intent: "white-label", senderName: "Mine" })).toMatchObject({
      status: 403,
      body: { ok: false, intent: "white-label", message: "The white label comes with the Ultimate plan. Change your plan to use it." },
    });
  });

  it.skipIf(skip)("free and Pro are told which plan has API access, shown no keys, and their create is refused", async () => {
    handle = await open();
    accounts = testAccounts(handle.db);
    const free = await signUp("free@example.com");
    const pro = await signUp("pro@example.com", "pro");
    expect((await apiTab(free)).apiKeys).toMatchObject({ canUse: false, keys: [], upgradeText: "API access comes with the Ultimate plan. Subscribe to use it." });
    expect((await apiTab(pro)).apiKeys).toMatchObject({ canUse: false, upgradeText: "API access comes with the Ultimate plan. Change your plan to use it." });
    expect(await post(free, { intent: "create-key", name: "Mine" })).toMatchObject({
      status: 403,
      body: { ok: false, intent: "create-key", message: "API access comes with the Ultimate plan. Subscribe to use it." },
    });
  });
});
