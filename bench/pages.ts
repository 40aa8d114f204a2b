/**
 * Page serving and memory rows (issue 11 §2 and §3): the production server (`npm start`) in its
 * own process, against nginx serving a static copy of the same HTML, and its resident memory
 * when idle and after a burst of page views, on PGlite and (with TEST_DATABASE_URL) PostgreSQL.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { QUIET_GC_DELAY_MS } from "../server/quiet-gc.ts";
import pg from "pg";
import { ensureBenchMedia } from "./media.ts";
import { npmStartFlags } from "../server/start-flags.ts";
import { nginxConfigFor, sharedInstanceEnv } from "../tests/scale/support/cluster.ts";
import { dropPrefix, testRedis } from "../tests/support/redis.ts";
// type only: erased at run time, so importing it does not start the benchmark
import type { Row as PageBenchRow } from "./run.ts";

const NGINX = "/usr/sbin/nginx";
const CONNECTIONS = 20;
const SECONDS = 8;
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 300_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Resident memory of a process, from the kernel (what `ps` and the numbers report). */
async function rssMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** CPU time (user + system) the process has used so far, in seconds */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks (100 per second on Linux)
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface Server {
  origin: string;
  child: ChildProcess;
}

/** `npm start` as an operator runs it (the build made beforehand), on a fresh data folder. */
export async function startServer(repoRoot: string, buildDir: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-bench-data-"));
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const child = spawn(process.execPath, [...npmStartFlags(repoRoot), path.join(repoRoot, "scripts/start.mjs")], {
    cwd: repoRoot,
    env: { ...inherited, NODE_ENV: "production", BUILD_DIR: buildDir, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env },
    // the request log goes where an operator's would: written, not read
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.once("exit", () => void fs.rm(dataDir, { recursive: true, force: true }));
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${origin}/healthz`, child);
  } catch (err) {
    await stop(child);
    throw err;
  }
  return { origin, child };
}

/** nginx in the foreground with its own prefix, serving the pages as static files. */
async function startNginx(pages: Record<string, string>): Promise<Server & { dir: string }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-bench-nginx-"));
  const port = await freePort();
  // nginx's worker runs as an unprivileged user when started by root: it must be able to read the copy
  await fs.chmod(dir, 0o755);
  await fs.mkdir(path.join(dir, "html"), { mode: 0o755 });
  const locations: string[] = [];
  for (const [urlPath, html] of Object.entries(pages)) {
    const file = `${urlPath === "/" ? "index" : urlPath.slice(1).replace(/\//g, "_")}.html`;
    await fs.writeFile(path.join(dir, "html", file), html, { mode: 0o644 });
    locations.push(`location = ${urlPath} { try_files /${file} =404; }`);
  }
  const conf = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  default_type text/html;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  sendfile on;
  etag on;
  server {
    listen 127.0.0.1:${port};
    root ${dir}/html;
    ${locations.join("\n    ")}
  }
}
`;
  await fs.writeFile(path.join(dir, "nginx.conf"), conf);
  const child = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "inherit"] });
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${origin}/`, child, 10_000);
  } catch (err) {
    await stop(child);
    throw err;
  }
  return { origin, child, dir };
}

/** Requests per second over SECONDS with CONNECTIONS keep-alive connections; any non-2xx fails the run. */
async function throughput(url: string): Promise<number> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/** Median time to the response headers over sequential keep-alive requests (one at a time). */
async function ttfbP50(url: string, n = 200): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    times.push(
      await new Promise<number>((resolve, reject) => {
        const started = performance.now();
        http
          .get(url, { agent }, (res) => {
            const ms = performance.now() - started;
            res.resume();
            res.on("end", () => resolve(ms));
          })
          .on("error", reject);
      }),
    );
  }
  agent.destroy();
  return median(times);
}

async function text(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** The production build `npm start` would make (kept up to date by scripts/start.mjs). */
export function ensureBuild(repoRoot: string, buildDir: string) {
  const built = spawnSync(process.execPath, [path.join(repoRoot, "scripts/start.mjs")], {
    cwd: repoRoot,
    env: { ...process.env, BUILD_DIR: buildDir, BUILD_ONLY: "true" },
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`site build failed:\n${built.stdout}\n${built.stderr}`);
}

export async function pageServingRows(opts: { repoRoot: string; buildDir: string; log: (line: string) => void }): Promise<PageBenchRow[]> {
  const { repoRoot, buildDir, log } = opts;
  await fs.access(NGINX).catch(() => {
    throw new Error(`${NGINX} is required for the page baseline (apt-get install -y nginx)`);
  });
  ensureBuild(repoRoot, buildDir);
  const rows: PageBenchRow[] = [];
  const cached = await startServer(repoRoot, buildDir, {});
  const uncached = await startServer(repoRoot, buildDir, { PAGE_CACHE_MB: "0" }).catch(async (err: unknown) => {
    await stop(cached.child);
    throw err;
  });
  let nginx: (Server & { dir: string }) | null = null;
  try {
    const slug = /href="(\/blog\/[a-z0-9-]+)"/.exec(await text(`${cached.origin}/blog`))?.[1];
    if (!slug) throw new Error("no article linked from /blog");
    const pages: Record<string, string> = { "/": "", "/faq": "", [slug]: "" };
    for (const p of Object.keys(pages)) pages[p] = await text(`${cached.origin}${p}`);
    nginx = await startNginx(pages);
    for (const [p, name] of [["/", "home"], ["/faq", "FAQ"], [slug, "an article"]] as const) {
      log(`pages: ${name}, nginx and cached…`);
      const base = await throughput(`${nginx.origin}${p}`);
      const ours = await throughput(`${cached.origin}${p}`);
      const ttfb = await ttfbP50(`${cached.origin}${p}`);
      const ratio = ours / base;
      rows.push({
        row: `Page ${name} (\`${p === slug ? "/blog/…" : p}\`, ${fmt(Buffer.byteLength(pages[p]!) / 1000, 0)} KB), cached, ${CONNECTIONS} connections`,
        baseline: `nginx, static copy: ${fmt(base, 0)} req/s`,
        measured: `${fmt(ours, 0)} req/s; TTFB p50 ${fmt(ttfb, 2)} ms (one at a time)`,
        ratio: `${fmt(ratio)}×`,
        target: "≥ 0.5× nginx; TTFB p50 ≤ 5 ms",
        pass: ratio >= 0.5 && ttfb <= 5,
      });
    }
    log("pages: home, uncached…");
    const home = await throughput(`${uncached.origin}/`);
    const ttfb = await ttfbP50(`${uncached.origin}/`, 50);
    rows.push({
      row: `Page home (\`/\`), rendered on every request (PAGE_CACHE_MB=0), ${CONNECTIONS} connections`,
      baseline: "—",
      measured: `${fmt(home, 0)} req/s; TTFB p50 ${fmt(ttfb, 1)} ms (one at a time)`,
      ratio: "—",
      target: "≥ 300 req/s",
      pass: home >= 300,
    });
  } finally {
    await Promise.all([stop(cached.child), stop(uncached.child), nginx ? stop(nginx.child) : null]);
    if (nginx) await fs.rm(nginx.dir, { recursive: true, force: true });
  }
  rows.push(await twoInstanceRow(repoRoot, buildDir, log));
  return rows;
}

interface Footprint {
  idle: number;
  after: number;
  burst: { before: number; after: number };
  download: { before: number; peak: number; after: number; bytes: number; seconds: number; cpuSeconds: number };
}

const BURST_REQUESTS = 100;
const BURST_CONNECTIONS = 20;

/** RSS sampled every 20 ms while `work` runs, and the peak. */
async function peakRss(pid: number, work: () => Promise<void>): Promise<number> {
  let peak = await rssMb(pid);
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await rssMb(pid).catch(() => 0));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  try {
    await work();
  } finally {
    sampling = false;
    await sampler;
  }
  return Math.max(peak, await rssMb(pid));
}

/** Body length of a GET, following the download link's redirect; the bytes are counted, not kept. */
function drain(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const location = res.headers.location;
        if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
          res.resume();
          drain(new URL(location, url).href).then(resolve, reject);
          return;
        }
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * On one server: RSS 10 s after /healthz first answers, then after 100 sequential page views
 * (and 5 s to settle); then a burst of 100 page requests over 20 connections (RSS 5 s after);
 * then, after a 20 MB warm-up download, a 1 GB download through \`/api/v1/download\` from a
 * local origin (RSS 10 s after, as long as the idle reading waits).
 */
async function footprint(repoRoot: string, buildDir: string, env: NodeJS.ProcessEnv, gbUrl: string, warmUrl: string): Promise<Footprint> {
  // the origin is on 127.0.0.1, which the server refuses to fetch from unless told otherwise
  const server = await startServer(repoRoot, buildDir, { ALLOW_PRIVATE_SOURCES: "true", ...env });
  const pid = server.child.pid!;
  const settle = () => new Promise((r) => setTimeout(r, 5_000));
  try {
    await new Promise((r) => setTimeout(r, 10_000));
    const idle = await rssMb(pid);
    const slugs = [...(await text(`${server.origin}/blog`)).matchAll(/href="(\/blog\/[a-z0-9-]+)"/g)].map((m) => m[1]!);
    const paths = ["/", "/faq", "/blog", "/about-us", "/premium", ...slugs.slice(0, 5)];
    for (let i = 0; i < 100; i++) await text(`${server.origin}${paths[i % paths.length]}`);
    await settle();
    const after = await rssMb(pid);

    let next = 0;
    await Promise.all(
      Array.from({ length: BURST_CONNECTIONS }, async () => {
        while (next < BURST_REQUESTS) await text(`${server.origin}${paths[next++ % paths.length]}`);
      }),
    );
    await settle();
    const burst = { before: after, after: await rssMb(pid) };

    // a first, small download loads the streaming code once (as the page views did for pages):
    // what is measured is what a download leaves behind, not code loaded on first use
    const warm = await drain(`${server.origin}/api/v1/download?url=${encodeURIComponent(warmUrl)}&format=mp4-360`);
    if (warm.status !== 200) throw new Error(`the warm-up download failed: HTTP ${warm.status}`);
    // past the full collection the server runs once downloads are quiet (server/quiet-gc.ts)
    await new Promise((r) => setTimeout(r, QUIET_GC_DELAY_MS + 2_000));
    const before = await rssMb(pid);
    let got = { status: 0, bytes: 0 };
    const cpuBefore = await cpuSeconds(pid);
    const started = performance.now();
    const peak = await peakRss(pid, async () => {
      got = await drain(`${server.origin}/api/v1/download?url=${encodeURIComponent(gbUrl)}&format=mp4-360`);
    });
    const seconds = (performance.now() - started) / 1000;
    const cpu = (await cpuSeconds(pid)) - cpuBefore;
    if (got.status !== 200 || got.bytes < 1e9) throw new Error(`the 1 GB download failed: HTTP ${got.status}, ${got.bytes} bytes`);
    // as long as the idle reading waits: V8 gives memory back once the process has been idle a while
    await new Promise((r) => setTimeout(r, 10_000));
    return { idle, after, burst, download: { before, peak, after: await rssMb(pid), bytes: got.bytes, seconds, cpuSeconds: cpu } };
  } finally {
    await stop(server.child);
  }
}

/** The benchmark media origin (bench/origin-process.ts) in its own process, so its memory is not the server's. */
async function startMediaOrigin(repoRoot: string, root: string): Promise<Server> {
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), [path.join(repoRoot, "bench", "origin-process.ts"), root, "0"], { stdio: ["pipe", "pipe", "inherit"] });
  const first = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", (code) => reject(new Error(`the media origin exited with ${code}`)));
  });
  return { origin: (JSON.parse(first) as { origin: string }).origin, child };
}

export async function footprintRows(opts: { repoRoot: string; buildDir: string; log: (line: string) => void }): Promise<PageBenchRow[]> {
  const { repoRoot, buildDir, log } = opts;
  ensureBuild(repoRoot, buildDir);
  const media = await ensureBenchMedia(log);
  const origin = await startMediaOrigin(repoRoot, media.dir);
  const gbUrl = `${origin.origin}/${path.basename(media.mp4_1gb)}`;
  const warmUrl = `${origin.origin}/${path.basename(media.mp4_20mb)}`;
  const rows: PageBenchRow[] = [];
  const rowsFor = (db: string, limit: number, m: Footprint): PageBenchRow[] => {
    const burstGrowth = m.burst.after - m.burst.before;
    const downloadGrowth = m.download.after - m.download.before;
    return [
      {
        row: `Server RSS on ${db}: 10 s after /healthz answers, then after 100 page views`,
        baseline: "—",
        measured: `${fmt(m.idle, 0)} MB idle; ${fmt(m.after, 0)} MB after the views`,
        ratio: "—",
        target: `≤ ${limit} MB`,
        pass: Math.max(m.idle, m.after) <= limit,
      },
      {
        row: `Server RSS on ${db}: a burst of ${BURST_REQUESTS} page requests over ${BURST_CONNECTIONS} connections`,
        baseline: `RSS before: ${fmt(m.burst.before, 0)} MB`,
        measured: `${fmt(m.burst.after, 0)} MB 5 s after (${burstGrowth >= 0 ? "+" : ""}${fmt(burstGrowth, 0)} MB)`,
        ratio: "—",
        target: "at most 30 MB above before",
        pass: burstGrowth <= 30,
      },
      {
        row: `Server RSS on ${db}: a ${fmt(m.download.bytes / 1e9, 1)} GB download (\`/api/v1/download\`, local origin, after a 20 MB one)`,
        baseline: `RSS before: ${fmt(m.download.before, 0)} MB`,
        measured: `${fmt(m.download.after, 0)} MB 10 s after (${downloadGrowth >= 0 ? "+" : ""}${fmt(downloadGrowth, 0)} MB); peak ${fmt(m.download.peak, 0)} MB; the download took ${fmt(m.download.seconds, 1)} s and ${fmt(m.download.cpuSeconds, 1)} s of the server's CPU`,
        ratio: "—",
        target: "at most 30 MB above before",
        // less memory afterwards than before is memory given back, not a miss
        pass: downloadGrowth <= 30,
      },
    ];
  };
  try {
    log("footprint: PGlite, first start of a fresh data folder…");
    rows.push(...rowsFor("PGlite (first start)", 250, await footprint(repoRoot, buildDir, {}, gbUrl, warmUrl)));
    const base = process.env.TEST_DATABASE_URL;
    if (!base) {
      log("footprint: TEST_DATABASE_URL is not set, the PostgreSQL row is skipped");
      rows.push({ row: "Server RSS on PostgreSQL", baseline: "—", measured: "not measured (TEST_DATABASE_URL unset)", ratio: "—", target: "≤ 150 MB", pass: null });
      return rows;
    }
    log("footprint: PostgreSQL, a fresh database…");
    rows.push(...(await withFreshDatabase(base, async (url) => rowsFor("PostgreSQL", 150, await footprint(repoRoot, buildDir, { DATABASE_URL: url }, gbUrl, warmUrl)))));
  } finally {
    await stop(origin.child);
  }
  return rows;
}

/** A fresh PostgreSQL database on the server of `base` for the duration of `work`, dropped after. */
async function withFreshDatabase<T>(base: string, work: (url: string) => Promise<T>): Promise<T> {
  const name = `vidfetch_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(base);
    url.pathname = `/${name}`;
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * The home page rendered on every request by two instances behind nginx, the topology of
 * docs/deploy.md (deploy/nginx.conf, one PostgreSQL database, Redis, the same secrets), on the
 * same machine: what an operator gets from this box's two cores. Needs TEST_DATABASE_URL.
 */
async function twoInstanceRow(repoRoot: string, buildDir: string, log: (line: string) => void): Promise<PageBenchRow> {
  const row = `Page home (\`/\`), rendered on every request, two instances behind nginx (docs/deploy.md), ${CONNECTIONS} connections`;
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return { row, baseline: "—", measured: "not measured (TEST_DATABASE_URL unset)", ratio: "—", target: "≥ 300 req/s", pass: null };
  log("pages: home, uncached, two instances behind nginx…");
  return withFreshDatabase(base, async (databaseUrl) => {
    const listenPort = await freePort();
    const origin = `http://127.0.0.1:${listenPort}`;
    const prefix = `vidfetch-bench-${Date.now()}:`;
    const env = { ...sharedInstanceEnv(origin, prefix), PAGE_CACHE_MB: "0", DATABASE_URL: databaseUrl };
    // one after the other: the first applies the migrations
    const first = await startServer(repoRoot, buildDir, env);
    const second = await startServer(repoRoot, buildDir, env).catch(async (err: unknown) => {
      await stop(first.child);
      throw err;
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-bench-nginx2-"));
    const instancePort = (s: Server) => Number(new URL(s.origin).port);
    const conf = path.join(dir, "nginx.conf");
    await fs.writeFile(conf, nginxConfigFor({ dir, listenPort, upstreamPorts: [instancePort(first), instancePort(second)] }));
    const nginx = spawn(NGINX, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", conf, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "inherit"] });
    try {
      await waitFor(`${origin}/healthz`, nginx, 20_000);
      const home = await throughput(`${origin}/`);
      return { row, baseline: "—", measured: `${fmt(home, 0)} req/s`, ratio: "—", target: "≥ 300 req/s", pass: home >= 300 };
    } finally {
      await Promise.all([stop(nginx), stop(first.child), stop(second.child)]);
      await fs.rm(dir, { recursive: true, force: true });
      const redis = await testRedis(prefix);
      await dropPrefix(redis, prefix);
      await redis.close();
    }
  });
}

export const PAGE_ROW_NOTES = `- **Pages**: \`npm start\`'s production server (its own process, default settings, request log
  written to /dev/null) against nginx (\`worker_processes 1\`, access log on, \`sendfile\`) serving
  a static copy of the same HTML, fetched from the server just before. \`autocannon\`, ${CONNECTIONS}
  keep-alive connections for ${SECONDS} s each, no compression asked; a non-2xx answer fails the
  run. "Cached" is the in-process page cache (docs/decisions/018-cacheable-pages.md); TTFB is
  the median time to the response headers over 200 sequential requests. "Uncached" is a second
  server with \`PAGE_CACHE_MB=0\`, rendering every request. "Two instances" starts two such
  servers on one fresh PostgreSQL database (TEST_DATABASE_URL) and Redis, with the same
  secrets, behind nginx running \`deploy/nginx.conf\` (ports and paths substituted,
  \`worker_processes 1\`), and loads nginx's address. Load generator, nginx and the servers
  share the two cores, so the ratios are noisy.
- **RSS**: \`/proc/<pid>/status\` VmRSS of the server process started by \`scripts/start.mjs\` on a
  fresh data folder (PGlite's first start creates and migrates its database), 10 s after
  \`/healthz\` first answers, then after 100 sequential page views (home, FAQ, blog, articles,
  …) and 5 s to settle. PostgreSQL: a fresh database on TEST_DATABASE_URL. Then, on the same
  server, ${BURST_REQUESTS} page requests over ${BURST_CONNECTIONS} connections (the same pages) and a 1 GB download
  (\`/api/v1/download?url=…&format=mp4-360\`, followed to the signed link, from the benchmark's
  media origin in its own process, \`ALLOW_PRIVATE_SOURCES=true\`), after one 20 MB download
  that loads the streaming code: RSS 5 s after the burst and 10 s after the download (as long
  as the idle reading waits) against RSS just before each; the download's peak is sampled
  every 20 ms. The download starts after the server's idle-time collection (server/quiet-gc.ts)
  and is timed, with the server process's CPU time over it (\`/proc/<pid>/stat\`): what a
  download through the production server costs (docs/decisions/031).
`;
