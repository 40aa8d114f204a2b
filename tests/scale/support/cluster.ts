import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "#tests/attack/support/build.ts";
import { createPostgresDatabase } from "#tests/attack/support/database.ts";
import { startServer, type AttackServer } from "#tests/attack/support/server.ts";
import { dropPrefix, freshPrefix, testRedis } from "#tests/support/redis.ts";

/**
 * The multi-instance topology of docs/deploy.md, started for a test: two production instances
 * (MOCKS=true) on one fresh PostgreSQL database and one fresh Redis key prefix, with the shared
 * secrets, behind nginx running deploy/nginx.conf (ports and paths substituted).
 */
export const NGINX_BIN = "/usr/sbin/nginx";

export interface Cluster {
  /** the public address (nginx) */
  origin: string;
  instances: [AttackServer, AttackServer];
  /** the instance that answered, from an `x-served-by` value (nginx's $upstream_addr, added by the test config; after a retry it lists every instance tried, the last one answered) */
  instanceAt(upstreamAddr: string | null): AttackServer | undefined;
  nginxLog(): string;
  stop(): Promise<void>;
}

export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(null));
      probe.listen(port, "127.0.0.1", () => {
        const got = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(got));
      });
    });
  if (preferred !== undefined) {
    const p = await tryPort(preferred);
    if (p !== null) return p;
  }
  const any = await tryPort(0);
  if (any === null) throw new Error("no free port");
  return any;
}

/** deploy/nginx.conf with this run's ports and a private prefix for pid, logs and temp files. */
export function nginxConfigFor(opts: { dir: string; listenPort: number; upstreamPorts: [number, number] }): string {
  const source = readFileSync(path.join(ROOT, "deploy/nginx.conf"), "utf8");
  const replace = (text: string, from: RegExp, to: string) => {
    if (!from.test(text)) throw new Error(`deploy/nginx.conf no longer has ${from}: update the test's substitutions`);
    return text.replace(from, to);
  };
  let conf = source;
  conf = replace(conf, /^worker_processes .*;$/m, "worker_processes 1;");
  conf = replace(conf, /^pid .*;$/m, `pid ${opts.dir}/nginx.pid;`);
  conf = replace(conf, /^error_log .*;$/m, `error_log ${opts.dir}/error.log info;`);
  conf = replace(conf, /^(\s*)access_log .*;$/m, `$1access_log ${opts.dir}/access.log;`);
  conf = replace(conf, /server 127\.0\.0\.1:3001 /, `server 127.0.0.1:${opts.upstreamPorts[0]} `);
  conf = replace(conf, /server 127\.0\.0\.1:3002 /, `server 127.0.0.1:${opts.upstreamPorts[1]} `);
  conf = replace(conf, /listen 80;/, `listen 127.0.0.1:${opts.listenPort};`);
  // test-only: which instance answered, so a test can stop the one that streams
  const tempPaths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${opts.dir}/${t};`).join("\n");
  conf = replace(conf, /^http \{$/m, `http {\n${tempPaths}\n  add_header X-Served-By $upstream_addr always;`);
  return conf;
}

async function startNginx(dir: string, conf: string, port: number): Promise<{ stop(): Promise<void>; log(): string }> {
  const confPath = path.join(dir, "nginx.conf");
  writeFileSync(confPath, conf);
  const child: ChildProcess = spawn(NGINX_BIN, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", confPath, "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  let exited = false;
  const ended = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  process.once("exit", () => child.kill("SIGKILL"));
  const log = () => out + (existsSync(path.join(dir, "error.log")) ? readFileSync(path.join(dir, "error.log"), "utf8") : "");
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(`nginx exited at start:\n${log()}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) })).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 20 s:\n${log()}`);
    await sleep(100);
  }
  return {
    log,
    async stop() {
      if (exited) return;
      child.kill("SIGQUIT");
      await Promise.race([ended, sleep(5000).then(() => child.kill("SIGKILL"))]);
    },
  };
}

/** What every instance behind one nginx shares: Redis (under one key prefix), the secrets, the public address and the trusted proxy. */
export function sharedInstanceEnv(origin: string, redisKeyPrefix: string): Record<string, string> {
  return {
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    REDIS_KEY_PREFIX: redisKeyPrefix,
    AUTH_SECRET: randomBytes(32).toString("hex"),
    DOWNLOAD_SIGNING_SECRET: randomBytes(32).toString("hex"),
    PUBLIC_URL: origin,
    TRUST_PROXY: "1",
  };
}

export async function startCluster(opts: { nginxPort: number; instancePorts: [number, number]; env: Record<string, string> }): Promise<Cluster> {
  const db = await createPostgresDatabase("vidfetch_scale");
  const prefix = freshPrefix();
  const dir = mkdtempSync(path.join(tmpdir(), "vidfetch-nginx-"));
  const origin = `http://127.0.0.1:${opts.nginxPort}`;
  const env = { ...sharedInstanceEnv(origin, prefix), ...opts.env };
  const started: AttackServer[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>> | null = null;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(started.map((s) => s.stop()));
    await db.drop().catch(() => {});
    const redis = await testRedis(prefix);
    await dropPrefix(redis, prefix);
    await redis.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // one after the other: the first applies the migrations, the second finds them applied
    for (const port of opts.instancePorts) started.push(await startServer({ preferredPort: port, databaseUrl: db.url, env }));
    const ports = started.map((s) => s.port) as [number, number];
    nginx = await startNginx(dir, nginxConfigFor({ dir, listenPort: opts.nginxPort, upstreamPorts: ports }), opts.nginxPort);
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
  const instances = started as [AttackServer, AttackServer];
  return {
    origin,
    instances,
    instanceAt: (addr) => {
      const last = addr?.split(",").at(-1)?.trim();
      return instances.find((s) => last === `127.0.0.1:${s.port}`);
    },
    nginxLog: () => nginx?.log() ?? "",
    stop,
  };
}

/**
 * A media host that answers quickly while `slow` is false and then drips its file (a few KB every
 * 100 ms): a download from it stays in progress long enough to stop the instance streaming it.
 */
export async function startSlowMediaHost(): Promise<{ origin: string; slow: boolean; file: string; close(): Promise<void> }> {
  const state = { slow: false, file: "" };
  let bytes = Buffer.alloc(0);
  const server = http.createServer((req, res) => {
    if (bytes.length === 0) bytes = readFileSync(state.file);
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? "");
    const start = range ? Number(range[1]) : 0;
    const end = range && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
    if (start >= bytes.length) {
      res.writeHead(416, { "content-range": `bytes */${bytes.length}` }).end();
      return;
    }
    const body = bytes.subarray(start, end + 1);
    const headers: http.OutgoingHttpHeaders = { "content-type": "video/mp4", "content-length": body.length, "accept-ranges": "bytes" };
    if (range) headers["content-range"] = `bytes ${start}-${end}/${bytes.length}`;
    res.writeHead(range ? 206 : 200, headers);
    if (req.method === "HEAD") return void res.end();
    if (!state.slow) return void res.end(body);
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed) return clearInterval(timer);
      res.write(body.subarray(at, at + 4096));
      at += 4096;
      if (at >= body.length) {
        clearInterval(timer);
        res.end();
      }
    }, 100);
    res.once("close", () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(state, {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
