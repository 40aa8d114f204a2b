/**
 * Issue 31 §1 through the API as the host mounts it: an Ultimate user creates a key (shown once,
 * stored hashed), calls /api/v1 with it as themselves (a 4K download their plan has), sees its
 * use counted, and revokes it (401 from then on); keys cannot reach the key routes or billing;
 * other plans are refused keys; each key has the plan's requests per minute with RateLimit-*
 * headers. PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { apiKeys } from "#db/schema/api-keys.ts";
import { hashKey } from "#app/modules/api-keys/api-keys.server.ts";
import { subscriptions } from "#db/schema/billing.ts";
import { testDatabases, type TestDatabase } from "#tests/support/test-db.ts";
import { ALL_FORMATS_URL, closePlatform, planFixtureFor, type PlanFixture } from "../plans/plan-fixture.ts";

afterAll(() => closePlatform());

interface CreatedKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  createdAt: string;
}

describe.each(testDatabases)("API keys on $name", (variant) => {
  let db: TestDatabase;
  let fx: PlanFixture;
  const { skip } = planFixtureFor(variant, (started) => ({ db, fx } = started));

  const keysCall = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${fx.origin}/api/v1/keys${path}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const withKey = (key: string, path: string, body?: unknown) =>
    fetch(`${fx.origin}/api/v1${path}`, {
      method: body ? "POST" : "GET",
      headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      redirect: "manual",
    });

  it.skipIf(skip)("a key made once calls the API as its owner, is counted, and is refused once revoked", async () => {
    const user = await fx.signUp("KeyOwner", "ultimate");
    const created = await keysCall("POST", "/", { cookie: user.cookie }, { name: "  Build server  " });
    expect(created.status).toBe(201);
    const key = (await created.json()) as CreatedKey;
    expect(key).toMatchObject({ name: "Build server", prefix: key.key.slice(0, 11) });
    expect(key.key).toMatch(/^vf_[A-Za-z0-9_-]{43}$/);
    // only its hash is stored
    const [row] = await db.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.hash).toBe(hashKey(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);

    // the key is its owner: a 4K download (Ultimate has it) where anonymous callers get 403
    const resolved = await withKey(key.key, "/resolve", { url: ALL_FORMATS_URL });
    expect(resolved.status).toBe(200);
    const formats = ((await resolved.json()) as { formats: Array<{ id: string; allowed: boolean }> }).formats;
    expect(formats.find((f) => f.id === "mp4-2160")?.allowed).toBe(true);
    const download = await withKey(key.key, "/downloads", { url: ALL_FORMATS_URL, format: "mp4-2160" });
    expect(download.status).toBe(200);
    expect(download.headers.get("ratelimit-limit")).toBe("60");
    expect(Number(download.headers.get("ratelimit-remaining"))).toBeLessThan(60);
    expect(Number(download.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const file = await fetch(((await download.json()) as { downloadUrl: string }).downloadUrl);
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
    expect((await fx.post("/downloads", { url: ALL_FORMATS_URL, format: "mp4-2160" })).status).toBe(403);

    // the list shows it (never the key), with its use counted (written beside the answer)
    const list = async () => (await (await keysCall("GET", "/", { cookie: user.cookie })).json()) as { keys: Array<Record<string, unknown>> };
    await expect.poll(async () => (await list()).keys[0]?.requestsThisMonth).toBe(2);
    const listed = await list();
    expect(listed.keys).toHaveLength(1);
    expect(listed.keys[0]).toMatchObject({ id: key.id, name: "Build server", prefix: key.prefix, requestsThisMonth: 2 });
    expect(listed.keys[0]!.lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(listed)).not.toContain(key.key);

    // another user cannot revoke it; its owner can, and it is refused from then on
    const other = await fx.signUp("OtherKeyOwner", "ultimate");
    expect((await keysCall("DELETE", `/${key.id}`, { cookie: other.cookie })).status).toBe(404);
    expect((await keysCall("DELETE", `/${key.id}`, { cookie: user.cookie })).status).toBe(204);
    const revoked = await withKey(key.key, "/resolve", { url: ALL_FORMATS_URL });
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toContain("Bearer");
    expect(await revoked.json()).toEqual({ error: { code: "key.invalid", message: "This API key is not valid, or it has been revoked." } });
    expect(((await (await keysCall("GET", "/", { cookie: user.cookie })).json()) as { keys: unknown[] }).keys).toEqual([]);
  }, 60_000);

  it.skipIf(skip)("unknown and malformed keys are a 401; keys cannot make keys or reach billing", async () => {
    for (const header of ["Bearer vf_notakeyatall", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer a b"]) {
      const res = await fetch(`${fx.origin}/api/v1/resolve`, { method: "POST", headers: { authorization: header, "content-type": "application/json" }, body: JSON.stringify({ url: ALL_FORMATS_URL }) });
      expect(res.status, header).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("key.invalid");
    }
    const user = await fx.signUp("KeyMaker", "ultimate");
    const { key } = (await (await keysCall("POST", "/", { cookie: user.cookie }, { name: "ci" })).json()) as CreatedKey;
    for (const [method, path] of [
      ["POST", "/"],
      ["GET", "/"],
      ["DELETE", "/anything"],
    ] as const) {
      const res = await keysCall(method, path, { authorization: `Bearer ${key}` }, method === "POST" ? { name: "made by a key" } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("key.session_only");
    }
    // even with the owner's session beside it, a key on the key routes is refused
    expect((await keysCall("POST", "/", { authorization: `Bearer ${key}`, cookie: user.cookie }, { name: "both" })).status).toBe(403);
  });

  it.skipIf(skip)("other plans cannot create keys, and a key whose owner left Ultimate is refused with the plan's words", async () => {
    for (const plan of [undefined, "basic", "pro"] as const) {
      const user = await fx.signUp(`NoKeys${plan ?? "free"}`, plan);
      const res = await keysCall("POST", "/", { cookie: user.cookie }, { name: "mine" });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "plan.required", message: expect.stringMatching(/^API access comes with the Ultimate plan\./) });
    }
    expect((await keysCall("POST", "/", {}, { name: "anon" })).status).toBe(401);
    const user = await fx.signUp("Downgraded", "ultimate");
    const { key } = (await (await keysCall("POST", "/", { cookie: user.cookie }, { name: "old" })).json()) as CreatedKey;
    // the subscription moves from Ultimate to Pro
    await db.db.update(subscriptions).set({ plan: "pro", priceId: "price_pro" }).where(eq(subscriptions.userId, user.userId));
    const refused = await withKey(key, "/resolve", { url: ALL_FORMATS_URL });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "plan.required", message: "API access comes with the Ultimate plan. Change your plan to use it." } });
  });

  it.skipIf(skip)("names are checked, and an account holds at most 10 keys", async () => {
    const user = await fx.signUp("ManyKeys", "ultimate");
    for (const name of ["", "   ", "x".repeat(61), "tab\there"]) {
      const res = await keysCall("POST", "/", { cookie: user.cookie }, { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("key.invalid_name");
    }
    for (let i = 0; i < 10; i++) expect((await keysCall("POST", "/", { cookie: user.cookie }, { name: `key ${i}` })).status).toBe(201);
    const eleventh = await keysCall("POST", "/", { cookie: user.cookie }, { name: "one more" });
    expect(eleventh.status).toBe(400);
    expect(((await eleventh.json()) as { error: { code: string } }).error.code).toBe("key.too_many");
  });

  it.skipIf(skip)("a key has the plan's requests per minute, then 429 with Retry-After", async () => {
    const user = await fx.signUp("Busy", "ultimate");
    const { key } = (await (await keysCall("POST", "/", { cookie: user.cookie }, { name: "busy" })).json()) as CreatedKey;
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 61; i++) {
      last = await withKey(key, "/openapi.json");
      statuses.push(last.status);
      if (i < 60) await last.arrayBuffer();
    }
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe("key.rate_limited");
    // another key of the same owner has its own minute
    const { key: second } = (await (await keysCall("POST", "/", { cookie: user.cookie }, { name: "second" })).json()) as CreatedKey;
    expect((await withKey(second, "/openapi.json")).status).toBe(200);
  }, 60_000);
});
