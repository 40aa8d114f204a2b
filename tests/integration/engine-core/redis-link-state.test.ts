/**
 * Issue 27, finding 18 (download links): with Redis down, download links answered 500, and after
 * a Redis restart without persistence a used link downloaded again. A real redis-server of our
 * own (no saving), killed and restarted under a running engine.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRedis, type RedisHandle } from "#server/state/redis-client.ts";
import { redisEngineState } from "#server/state/redis-engine-state.ts";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";

const anonymous = { kind: "anonymous" as const };
let port = 0;
let redisServer: ChildProcess | null = null;
let redis: RedisHandle;
let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };
const warnings: string[] = [];

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const p = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  return p;
}

/** redis-server on `port`, keeping nothing on disk (a restart starts empty) */
async function startRedis(): Promise<void> {
  redisServer = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once("error", () => resolve(true));
      s.listen(port, "127.0.0.1", () => s.close(() => resolve(false)));
    });
    if (up) return;
    await sleep(50);
  }
  throw new Error("redis-server did not start");
}

async function stopRedis(): Promise<void> {
  const child = redisServer;
  redisServer = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

/** the client is connected again (it retries every few seconds) */
async function redisReady(): Promise<void> {
  for (let i = 0; i < 200 && !redis.client.isReady; i++) await sleep(50);
  expect(redis.client.isReady).toBe(true);
}

beforeAll(async () => {
  port = await freePort();
  await startRedis();
  const logger = pino(
    { level: "warn" },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        warnings.push(chunk.toString());
        cb();
      },
    }),
  );
  redis = await connectRedis({ url: `redis://127.0.0.1:${port}`, prefix: "vf-test-links:", logger });
  fx = await startEngineFixture({ deps: { state: redisEngineState({ redis, logger }) } });
  server = await fx.serve();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fx?.close();
  await redis?.close().catch(() => undefined);
  await stopRedis();
});

const download = async () => {
  const created = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: anonymous, ip: "203.0.113.4" });
  return { created, fetch: () => get(`${server.origin}${dlPath(created.downloadUrl)}`) };
};

describe("download links and a Redis that fails", () => {
  it("with Redis down, a link still downloads (this instance's own state, with a warning), once", async () => {
    await stopRedis();
    const link = await download();
    const first = await link.fetch();
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(1000);
    expect((await link.fetch()).status).toBe(410);
    expect(warnings.join("")).toContain("shared engine state unavailable");
    await startRedis();
    await redisReady();
  }, 60_000);

  it("a link used before Redis restarted empty is not downloaded again", async () => {
    await redisReady();
    const link = await download();
    expect((await link.fetch()).status).toBe(200);
    expect((await link.fetch()).status).toBe(410);
    // a link's making time is known to the second (decision 041): the loss comes a second later
    await sleep(1100);
    await stopRedis();
    await startRedis();
    await redisReady();
    const again = await link.fetch();
    expect(again.status).toBe(410);
    // a link made after the restart downloads as usual
    expect((await (await download()).fetch()).status).toBe(200);
  }, 60_000);
});
