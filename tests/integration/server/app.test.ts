import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { RATE_LIMIT_MESSAGE } from "#server/app.ts";
import { startHost } from "./host.ts";

/** The Express host: health, readiness, headers and the POST limit. */
describe("the Express host", () => {
  test("healthz answers and every response carries the security headers", async () => {
    const { base } = await startHost();
    const res = await fetch(`${base}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    // development sends the policy report-only (Vite's inline scripts); production enforces it
    expect(res.headers.get("content-security-policy-report-only")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("x-powered-by")).toBeNull();
  });

  test("HSTS is sent when the public URL is https", async () => {
    const { base } = await startHost({ env: { PUBLIC_URL: "https://dl.example.com" } });
    const res = await fetch(`${base}/healthz`);
    expect(res.headers.get("strict-transport-security")).toContain("max-age=");
  });

  test("readyz reports a database that does not answer", async () => {
    const { base } = await startHost({
      ping: async () => {
        throw new Error("connection refused");
      },
    });
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "not ready", checks: { database: "unreachable" } });
  });

  test("POSTs are limited per IP with 429, Retry-After and the spec's message", async () => {
    const { base, calls } = await startHost({ env: { POST_RATE_LIMIT_PER_MINUTE: "3" } });
    const post = () =>
      fetch(`${base}/api/v1/resolve`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ url: "https://youtu.be/aaaaaaaaaaa" }) });
    for (let i = 0; i < 3; i++) expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(await limited.json()).toEqual({ error: { code: "download.rate_limited", message: RATE_LIMIT_MESSAGE } });
    expect(RATE_LIMIT_MESSAGE).toBe("You've made too many requests. Please wait a moment and try again.");
    // the limited request never reached the engine
    expect(calls.resolved).toHaveLength(3);
    // GETs are not limited by the POST limiter
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe("start-up", () => {
  test("a bad configuration value stops the server with a message naming the variable", () => {
    const root = path.resolve(import.meta.dirname, "../../..");
    const r = spawnSync(process.execPath, ["--import", "tsx", "server/index.ts"], {
      cwd: root,
      env: { ...process.env, PORT: "not-a-port", BUILD_DIR: "/nonexistent" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("PORT");
    expect(r.stderr).toContain("not-a-port");
    expect(r.stderr).toContain("docs/env.md");
  });
});
