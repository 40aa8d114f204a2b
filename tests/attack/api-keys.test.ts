import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKeys, hashKey } from "#app/modules/api-keys/api-keys.server.ts";
import type { Database } from "#db/client.ts";
import { send, signUpConfirmed } from "./support/accounts.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 31 §6 from outside, against the production server (MOCKS=true, the fake Stripe): an
 * Ultimate user's API key never reaches the server's logs (at debug level, through valid,
 * revoked and garbled uses), cannot reach a session-only route (the key routes, billing), and
 * the lookup compares a digest, so a guess sharing a real key's first characters is no nearer.
 */
let server: AttackServer;
let cookie = "";

beforeAll(async () => {
  server = await startServer({ preferredPort: 3338, env: { LOG_LEVEL: "debug" } });
  cookie = await signUpConfirmed(server, { name: "Key Holder", email: `key-holder-${Date.now()}@example.com`, password: "keys are secrets 31" });
  // Ultimate through the fake Stripe checkout, as a buyer would
  const plan = await send(server, "/premium", { form: { plan: "ultimate" }, cookie });
  expect(plan.status).toBe(303);
  const paid = await fetch(`${plan.location}/pay`, { method: "POST", redirect: "manual" });
  await paid.arrayBuffer();
  expect(paid.status).toBe(303);
}, 200_000);

afterAll(async () => {
  await server?.stop();
});

const api = (path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) =>
  fetch(`${server.origin}/api/v1${path}`, {
    method: init.method ?? (init.body ? "POST" : "GET"),
    headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
    redirect: "manual",
  });

describe("API keys under attack", () => {
  it("a key appears in no log line, whatever it was used for", async () => {
    const made = await api("/keys", { body: { name: "logged?" }, headers: { cookie, origin: server.origin } });
    expect(made.status).toBe(201);
    const { key, id } = (await made.json()) as { key: string; id: string };
    const bearer = { authorization: `Bearer ${key}` };
    expect((await api("/resolve", { body: { url: "https://www.youtube.com/watch?v=vidfetchAll" }, headers: bearer })).status).toBe(200);
    expect((await api("/downloads", { body: { url: "https://www.youtube.com/watch?v=vidfetchAll", format: "mp4-2160" }, headers: bearer })).status).toBe(200);
    expect((await api(`/resolve?key=${key}`, { headers: bearer })).status).toBeGreaterThanOrEqual(400);
    expect((await api("/keys", { headers: bearer })).status).toBe(403);
    expect((await api(`/keys/${id}`, { method: "DELETE", headers: { cookie, origin: server.origin } })).status).toBe(204);
    expect((await api("/resolve", { body: { url: "https://www.youtube.com/watch?v=vidfetchAll" }, headers: bearer })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
    const logs = server.output();
    expect(logs.length).toBeGreaterThan(0);
    // neither the key, nor its random part, nor its stored digest
    expect(logs).not.toContain(key);
    expect(logs).not.toContain(key.slice(3));
    expect(logs).not.toContain(hashKey(key));
  });

  it("a key cannot reach the key routes or billing, even beside the owner's session", async () => {
    const { key } = (await (await api("/keys", { body: { name: "ci" }, headers: { cookie, origin: server.origin } })).json()) as { key: string };
    const bearer = { authorization: `Bearer ${key}` };
    for (const [method, path, body] of [
      ["POST", "/api/v1/keys", { name: "made by a key" }],
      ["GET", "/api/v1/keys", undefined],
      ["DELETE", "/api/v1/keys/x", undefined],
      ["POST", "/api/create-checkout-session", { plan: "pro" }],
      ["POST", "/api/verify-payment", { sessionId: "cs_test_x" }],
    ] as const) {
      for (const headers of [bearer, { ...bearer, cookie, origin: server.origin }]) {
        const res = await fetch(`${server.origin}${path}`, { method, headers: { ...headers, ...(body ? { "content-type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined, redirect: "manual" });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe("key.session_only");
      }
    }
  });

  it("the lookup compares a digest: a guess sharing a key's first characters sends the database nothing of them", async () => {
    const seen: unknown[][] = [];
    // a stand-in for the database that records what each query is given
    const db = {
      select: () => ({
        from: () => ({
          where: (condition: { queryChunks?: unknown[] }) => {
            seen.push(JSON.parse(JSON.stringify(condition, (_k, v: unknown) => (typeof v === "object" && v !== null && "table" in v ? undefined : v))) as unknown[]);
            return { limit: async () => [] };
          },
        }),
      }),
    } as unknown as Database;
    const keys = createApiKeys({ db });
    const real = "vf_" + "A".repeat(43);
    const nearGuess = real.slice(0, 40) + "BBB";
    expect(await keys.verify(nearGuess)).toBeNull();
    const sent = JSON.stringify(seen);
    expect(sent).toContain(hashKey(nearGuess));
    // nothing of the guessed key itself reaches the query, so no comparison can stop early on a shared prefix
    expect(sent).not.toContain(nearGuess.slice(3, 20));
    expect(hashKey(nearGuess).slice(0, 8)).not.toBe(hashKey(real).slice(0, 8));
  });
});
