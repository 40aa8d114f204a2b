import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpConfirmed } from "./support/accounts.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27 §11 at the HTTP level, against the production server: whatever is rendered for a
 * session (pages, React Router's route data, the auth library's session answer) is
 * `private, no-store`, never enters the in-process page cache, and a sign-out tells the browser
 * to clear its cache. The service worker's side is tests/e2e/offline-privacy.spec.ts.
 */
let server: AttackServer;
let cookie = "";
const email = `personal-${Date.now()}@example.com`;
const NAME = "Personal Responses";
const PASSWORD = "personal responses 27 horse";

const sameOrigin = () => ({ origin: server.origin, "sec-fetch-site": "same-origin" });
/** the Logout button's post: a form without fields */
const logoutPost = () => ({ method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...sameOrigin() }, body: "", redirect: "manual" as const });

async function get(path: string, withSession: boolean) {
  const res = await fetch(`${server.origin}${path}`, { headers: withSession ? { cookie } : {}, redirect: "manual" });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

async function signIn(): Promise<string> {
  const res = await fetch(`${server.origin}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...sameOrigin() },
    body: new URLSearchParams({ email, password: PASSWORD }),
    redirect: "manual",
  });
  const session = res.headers.getSetCookie().map((c) => c.split(";")[0]!).filter((c) => c.includes("session_token"));
  expect(session, `login answered ${res.status}`).toHaveLength(1);
  return session.join("; ");
}

beforeAll(async () => {
  server = await startServer({ preferredPort: 3336 });
  cookie = await signUpConfirmed(server, { name: NAME, email, password: PASSWORD });
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

describe("responses rendered for a session", () => {
  it("pages and route data carrying the account are private, no-store", async () => {
    for (const path of ["/faq", "/faq.data", "/_root.data", "/blog.data", "/about-us.data", "/dashboard", "/dashboard.data", "/supported-sites.data"]) {
      const res = await get(path, true);
      expect(res.status, path).toBe(200);
      expect(res.body, `${path} is rendered for the account`).toContain(email);
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });

  it("the auth library's session answer is private, no-store", async () => {
    const res = await get("/api/auth/get-session", true);
    expect(res.body).toContain(email);
    expect(res.headers.get("cache-control")).toMatch(/\bprivate\b/);
    expect(res.headers.get("cache-control")).toMatch(/\bno-store\b/);
  });

  it("a page cached for anonymous visitors is never served to a session, nor a session's page to them", async () => {
    await get("/faq", false);
    const anonymous = await get("/faq", false);
    expect(anonymous.headers.get("x-page-cache")).toBe("hit");
    const signedIn = await get("/faq", true);
    expect(signedIn.headers.get("x-page-cache")).toBeNull();
    expect(signedIn.body).toContain(email);
    const after = await get("/faq", false);
    expect(after.body).not.toContain(email);
    expect(after.body).not.toContain(NAME);
  });

  it("every sign-out tells the browser to clear its cache of the site", async () => {
    const logout = await fetch(`${server.origin}/logout`, logoutPost());
    expect(logout.status).toBe(302);
    expect(logout.headers.get("clear-site-data")).toBe('"cache"');

    cookie = await signIn();
    const data = await fetch(`${server.origin}/logout.data`, logoutPost());
    expect(data.status).toBeLessThan(400);
    expect(data.headers.get("clear-site-data")).toBe('"cache"');

    cookie = await signIn();
    const api = await fetch(`${server.origin}/api/auth/sign-out`, { method: "POST", headers: { cookie, "content-type": "application/json", ...sameOrigin() }, body: "{}" });
    expect(api.status).toBe(200);
    expect(api.headers.get("clear-site-data")).toBe('"cache"');
    expect((await get("/faq.data", true)).body).not.toContain(email);
  });
});
