import { createServer, connect, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { send, signUpConfirmed } from "./support/accounts.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27 §18 (the login part): with the shared Redis gone, logging in must still work, its
 * attempts counted in the process with a logged warning, never a 500. The server reaches Redis
 * through a relay this test can cut, so the shared Redis of the machine stays up for others.
 */
const REDIS = { host: "127.0.0.1", port: 6379 };

function startRelay(): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay: Server = createServer((client) => {
    const upstream = connect(REDIS.port, REDIS.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) =>
    relay.listen(0, "127.0.0.1", () => {
      const port = (relay.address() as { port: number }).port;
      resolve({
        port,
        cut: () =>
          new Promise<void>((done) => {
            relay.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    }),
  );
}

async function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(REDIS.port, REDIS.host);
    s.once("connect", () => (s.end(), resolve(true)));
    s.once("error", () => resolve(false));
  });
}

const available = await redisAnswers();
if (!available) console.log("[notice] no Redis at 127.0.0.1:6379: the Redis-down login test is skipped");

let server: AttackServer;
let relay: Awaited<ReturnType<typeof startRelay>>;

beforeAll(async () => {
  if (!available) return;
  relay = await startRelay();
  server = await startServer({
    preferredPort: 3331,
    env: { REDIS_URL: `redis://127.0.0.1:${relay.port}`, DOWNLOAD_SIGNING_SECRET: "auth-attack-signing-secret-0123456789abcdef", AUTH_SECRET: "auth-attack-auth-secret-0123456789abcdef", REDIS_KEY_PREFIX: `vidfetch-auth-attack-${process.pid}-${Date.now()}:`, LOG_LEVEL: "warn" },
  });
}, 200_000);

afterAll(async () => {
  await server?.stop();
  await relay?.cut();
});

it.runIf(available)("logs in while Redis is down: right password 302, wrong 401, and a warning in the log", async () => {
  const email = `redis-down-${Date.now()}@example.test`;
  const password = "correct horse battery";
  await signUpConfirmed(server, { name: "Redis Down", email, password });

  await relay.cut();
  const wrong = await send(server, "/login", { form: { email, password: "not the password 1", returnTo: "/dashboard" } });
  const right = await send(server, "/login", { form: { email, password, returnTo: "/dashboard" } });
  expect([wrong.status, right.status], `${wrong.text.slice(0, 200)}\n${right.text.slice(0, 200)}`).toEqual([401, 302]);
  expect(right.setCookies.some((c) => /session_token=[^;]+/.test(c))).toBe(true);
  expect(server.output()).toMatch(/attempt limiter: the shared store failed/);

  // the limits still hold, in the process
  const statuses: number[] = [];
  for (let i = 0; i < 11; i++) statuses.push((await send(server, "/login", { form: { email, password: `wrong guess ${i}x`, returnTo: "/dashboard" } })).status);
  expect(statuses).toContain(429);
  expect(statuses).not.toContain(500);
}, 120_000);
