import { describe, expect, test } from "vitest";
import { ConfigError, loadConfig, publicConfig } from "./config.ts";

describe("loadConfig", () => {
  test("an empty environment gives the documented defaults", () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.HOST).toBe("0.0.0.0");
    expect(c.PUBLIC_URL).toBe("http://localhost:3000");
    expect(c.SITE_NAME).toBe("VidFetch");
    expect(c.DATA_DIR).toBe("./data");
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.ALLOW_PRIVATE_SOURCES).toBe(false);
    expect(c.MOCKS).toBe(false);
    expect(c.YOUTUBE_API_BASE_URL).toBe("https://www.googleapis.com/youtube/v3");
    expect(c.YOUTUBE_CLIENTS.length).toBeGreaterThan(0);
  });

  test("PUBLIC_URL follows PORT and loses a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).PUBLIC_URL).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://dl.example.com/" }).PUBLIC_URL).toBe("https://dl.example.com");
  });

  test("REDIS_URL is optional; the key prefix has a default", () => {
    const c = loadConfig({});
    expect(c.REDIS_URL).toBeUndefined();
    expect(c.REDIS_KEY_PREFIX).toBe("vidfetch:");
    expect(loadConfig({ REDIS_URL: "rediss://user:pw@cache.example:6380/2", REDIS_KEY_PREFIX: "site-a:" })).toMatchObject({ REDIS_URL: "rediss://user:pw@cache.example:6380/2", REDIS_KEY_PREFIX: "site-a:" });
  });

  test("booleans accept true/false/1/0", () => {
    expect(loadConfig({ MOCKS: "true", ALLOW_PRIVATE_SOURCES: "1" })).toMatchObject({ MOCKS: true, ALLOW_PRIVATE_SOURCES: true });
    expect(loadConfig({ MOCKS: "false" }).MOCKS).toBe(false);
  });

  test.each([
    ["PORT", "seventy"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["MOCKS", "maybe"],
    ["OUTBOUND_HOST_MAP", "www.youtube.com"],
    ["PUBLIC_URL", "ftp://example.com"],
    ["AD_CLIENT", "pub-1"],
    ["AD_SLOTS", "banner=1"],
    ["DOWNLOAD_SIGNING_SECRET", "short"],
    ["AUTH_SECRET", "short"],
    ["LOG_LEVEL", "loud"],
    ["REDIS_URL", "http://127.0.0.1:6379"],
    ["REDIS_KEY_PREFIX", "has spaces:"],
    ["DOWNLOAD_RANGE_CONCURRENCY", "0"],
    ["DOWNLOAD_RANGE_CONCURRENCY", "64"],
    ["OUTBOUND_MAX_CONNECTIONS_PER_HOST", "-1"],
  ])("a bad %s stops the start with a message naming it", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).toContain(value);
  });

  test("host map, clients and ad slots are parsed", () => {
    const c = loadConfig({
      OUTBOUND_HOST_MAP: "www.youtube.com=http://127.0.0.1:4000,*.googlevideo.com=http://127.0.0.1:4000",
      YOUTUBE_CLIENTS: "ANDROID, IOS",
      AD_PROVIDER: "adsense",
      AD_CLIENT: "ca-pub-123",
      AD_SLOTS: "header=111,in-content=222",
    });
    expect(c.YOUTUBE_CLIENTS).toEqual(["ANDROID", "IOS"]);
    expect(publicConfig(c).ads).toEqual({ provider: "adsense", client: "ca-pub-123", slots: { header: "111", "in-content": "222" } });
  });

  test("the browser-visible config holds no secrets", () => {
    const c = loadConfig({
      YOUTUBE_API_KEY: "secret-key",
      DOWNLOAD_SIGNING_SECRET: "x".repeat(40),
      STRIPE_SECRET_KEY: "sk_test",
      STRIPE_WEBHOOK_SECRET: "whsec_test",
      STRIPE_PRICE_BASIC: "price_b",
      STRIPE_PRICE_PRO: "price_p",
      STRIPE_PRICE_ULTIMATE: "price_u",
      AUTH_SECRET: "a".repeat(40),
    });
    const json = JSON.stringify(publicConfig(c));
    expect(json).not.toContain("whsec_test");
    expect(json).not.toContain("a".repeat(40));
    expect(json).not.toContain("secret-key");
    expect(json).not.toContain("x".repeat(40));
    expect(json).not.toContain("sk_test");
  });
});

test("a Stripe secret key needs the webhook secret and every plan's price", () => {
  expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PRICE_BASIC: "price_b" })).toThrow(
    /STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set[\s\S]*STRIPE_PRICE_PRO[\s\S]*STRIPE_PRICE_ULTIMATE/,
  );
  expect(() => loadConfig({ STRIPE_PRICE_PRO: "pro" })).toThrow(/STRIPE_PRICE_PRO: must be a Stripe price id/);
  expect(loadConfig({}).STRIPE_SECRET_KEY).toBeUndefined();
});

test("job storage: a bucket needs the whole S3_* group; the cap has a default", () => {
  expect(loadConfig({}).JOB_STORAGE_MAX_MB).toBe(2048);
  expect(loadConfig({}).S3_BUCKET).toBeUndefined();
  const full = { S3_BUCKET: "vidfetch-jobs", S3_REGION: "auto", S3_ACCESS_KEY_ID: "key", S3_SECRET_ACCESS_KEY: "secret" };
  expect(loadConfig(full)).toMatchObject(full);
  expect(loadConfig(full).S3_ENDPOINT).toBeUndefined();
  expect(loadConfig({ ...full, S3_ENDPOINT: "http://127.0.0.1:9000", JOB_STORAGE_MAX_MB: "512" })).toMatchObject({ S3_ENDPOINT: "http://127.0.0.1:9000", JOB_STORAGE_MAX_MB: 512 });
  expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:9000", S3_BUCKET: "jobs" })).toThrow(
    /S3_REGION: is required when any S3_\* variable is set[\s\S]*S3_ACCESS_KEY_ID[\s\S]*S3_SECRET_ACCESS_KEY/,
  );
  expect(() => loadConfig({ S3_SECRET_ACCESS_KEY: "secret" })).toThrow(/S3_BUCKET: is required/);
  expect(() => loadConfig({ ...full, S3_BUCKET: "Not_A_Bucket" })).toThrow(/S3_BUCKET: must be a bucket name/);
  expect(() => loadConfig({ ...full, S3_ENDPOINT: "ftp://x" })).toThrow(/S3_ENDPOINT/);
  expect(() => loadConfig({ JOB_STORAGE_MAX_MB: "0" })).toThrow(/JOB_STORAGE_MAX_MB/);
});

test("parallel ranges and the per-host connection cap have documented defaults (decision 021)", () => {
  const c = loadConfig({});
  expect(c.DOWNLOAD_RANGE_CONCURRENCY).toBe(6);
  expect(c.OUTBOUND_MAX_CONNECTIONS_PER_HOST).toBe(64);
  expect(loadConfig({ OUTBOUND_MAX_CONNECTIONS_PER_HOST: "0" }).OUTBOUND_MAX_CONNECTIONS_PER_HOST).toBe(0);
});

test(".env.example runs as-is: every value in it is accepted", async () => {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(new URL("../.env.example", import.meta.url), "utf8");
  const env = Object.fromEntries(
    text
      .split("\n")
      .filter((l) => l.trim() && !l.trim().startsWith("#"))
      .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
  );
  expect(Object.keys(env).length).toBeGreaterThan(10);
  const c = loadConfig(env);
  expect(c.PORT).toBe(3000);
  expect(c.MOCKS).toBe(false);
});

test("docs/env.md documents every variable of the schema", async () => {
  const { readFile } = await import("node:fs/promises");
  const { envSchema } = await import("./config.ts");
  const doc = await readFile(new URL("../docs/env.md", import.meta.url), "utf8");
  const keys = Object.keys(envSchema.in.shape);
  expect(keys.length).toBeGreaterThan(20);
  expect(keys.filter((k) => !doc.includes(`\`${k}\``))).toEqual([]);
});

test(".env.example names the secrets a multi-instance deployment must set", async () => {
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(new URL("../.env.example", import.meta.url), "utf8");
  for (const name of ["AUTH_SECRET", "DOWNLOAD_SIGNING_SECRET"]) expect(text).toMatch(new RegExp(`^#? ?${name}=`, "m"));
});
