import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ARTICLE_SLUG } from "#tests/attack/support/targets.ts";
import { redisAvailable } from "#tests/support/redis.ts";
import { freePort, NGINX_BIN, startCluster, startSlowMediaHost, type Cluster } from "./support/cluster.ts";

/**
 * Issue 11 §1: two instances on one PostgreSQL and one Redis behind nginx (deploy/nginx.conf)
 * behave as one site. Skipped with a notice when nginx, PostgreSQL (TEST_DATABASE_URL) or Redis
 * is missing.
 */
const missing: string[] = [];
if (!existsSync(NGINX_BIN)) missing.push(`nginx (${NGINX_BIN})`);
if (!process.env.TEST_DATABASE_URL) missing.push("PostgreSQL (TEST_DATABASE_URL)");
if (!(await redisAvailable("the two-instance suite"))) missing.push("Redis");
if (missing.length) console.warn(`[notice] the two-instance suite is skipped: ${missing.join(", ")} not available`);

const POST_LIMIT = 10;
const SLOW_HOST = "slow.vidfetch.test";
const SAMPLE_LINK = "https://media.example.test/files/sample-360p.mp4";

let cluster: Cluster;
let slowHost: Awaited<ReturnType<typeof startSlowMediaHost>>;
let ipSeq = 0;
/** a client address of its own per request group (the instances trust one proxy hop) */
const clientIp = () => `198.51.100.${++ipSeq}`;

function api(base: string, ip?: string) {
  const headers = (extra: Record<string, string> = {}) => ({ origin: cluster.origin, ...(ip ? { "x-forwarded-for": ip } : {}), ...extra });
  return {
    post: (p: string, body: unknown) => fetch(base + p, { method: "POST", headers: headers({ "content-type": "application/json" }), body: JSON.stringify(body) }),
    get: (p: string, extra?: Record<string, string>) => fetch(base + p, { headers: headers(extra) }),
  };
}

async function createDownload(base: string, ip: string, url: string, format: string): Promise<{ id: string; downloadUrl: string }> {
  const res = await api(base, ip).post("/api/v1/downloads", { url, format });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { id: string; downloadUrl: string };
}

/** the path of a signed link (its origin is the public one: nginx) */
const dlPath = (downloadUrl: string) => new URL(downloadUrl).pathname;

/** Server-sent progress events until a final state (or the time limit). */
async function readProgress(url: string, timeoutMs: number): Promise<Array<{ bytes: number; total: number | null; state: string }>> {
  const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  expect(res.status).toBe(200);
  const events: Array<{ bytes: number; total: number | null; state: string }> = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (let i = buffer.indexOf("\n\n"); i >= 0; i = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (data) events.push(JSON.parse(data));
      }
      if (["done", "failed", "aborted"].includes(events.at(-1)?.state ?? "")) break;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return events;
}

/** GET with Node's http client: what a browser sees when the connection breaks mid-body. */
function streamingGet(url: string): Promise<{ res: http.IncomingMessage; firstChunk: Promise<void>; outcome: Promise<{ ok: boolean; received: number; error?: string }> }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, (res) => {
      let received = 0;
      let onFirst!: () => void;
      const firstChunk = new Promise<void>((r) => (onFirst = r));
      const outcome = new Promise<{ ok: boolean; received: number; error?: string }>((done) => {
        res.on("data", (c: Buffer) => {
          received += c.length;
          onFirst();
        });
        res.once("end", () => done({ ok: res.complete, received }));
        res.once("error", (err) => done({ ok: false, received, error: err.message }));
        res.once("aborted", () => done({ ok: false, received, error: "aborted" }));
      });
      resolve({ res, firstChunk, outcome });
    });
    req.once("error", reject);
  });
}

describe.skipIf(missing.length > 0)("two instances behind nginx, one PostgreSQL, one Redis", () => {
  beforeAll(async () => {
    slowHost = await startSlowMediaHost();
    const nginxPort = await freePort(3310);
    cluster = await startCluster({
      nginxPort,
      instancePorts: [3311, 3312],
      env: {
        POST_RATE_LIMIT_PER_MINUTE: String(POST_LIMIT),
        OUTBOUND_HOST_MAP: `${SLOW_HOST}=${slowHost.origin}`,
        ACCOUNT_IP_LIMIT_SCALE: "100",
      },
    });
    // the slow host serves the mock platform's own progressive MP4
    const media = path.join(cluster.instances[0].dataDir, "mock-platform", "media");
    const set = readdirSync(media).find((d) => d.startsWith("mock-media-"));
    slowHost.file = path.join(media, set!, "progressive-360.mp4");
  }, 600_000);

  afterAll(async () => {
    await cluster?.stop();
    await slowHost?.close();
  }, 120_000);

  it("the POST rate limit is one budget across both instances", async () => {
    const [a, b] = cluster.instances;
    const ip = clientIp();
    const statuses: number[] = [];
    for (let i = 0; i < POST_LIMIT; i++) {
      const res = await api(i % 2 === 0 ? a.origin : b.origin, ip).post("/api/v1/resolve", { url: "not a link" });
      statuses.push(res.status);
    }
    expect(statuses.every((s) => s >= 400 && s < 500 && s !== 429), statuses.join(",")).toBe(true); // a bad link, counted all the same
    // either instance now refuses this client: per instance it made only half its limit
    for (const s of [a, b]) {
      const res = await api(s.origin, ip).post("/api/v1/resolve", { url: "not a link" });
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    }
    // another client is not affected
    expect((await api(a.origin, clientIp()).post("/api/v1/resolve", { url: "not a link" })).status).toBe(400);
  });

  it("nginx passes the client address, not one the client made up", async () => {
    const spoofed = clientIp();
    const remaining = (res: Response) => Number(/r=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);
    // through nginx, a planted X-Forwarded-For is replaced by the real peer (127.0.0.1)
    const viaNginx = await api(cluster.origin, spoofed).post("/api/v1/resolve", { url: "not a link" });
    expect(viaNginx.status).toBe(400);
    const direct = await api(cluster.instances[0].origin, spoofed).post("/api/v1/resolve", { url: "not a link" });
    // the planted address's budget is untouched by the request through nginx
    expect(remaining(direct)).toBe(POST_LIMIT - 1);
  });

  it("a download made on one instance is streamed by the other, and its link is then used up on both", async () => {
    const [a, b] = cluster.instances;
    const ip = clientIp();
    const d = await createDownload(a.origin, ip, SAMPLE_LINK, "mp4-360");
    expect(d.downloadUrl.startsWith(cluster.origin)).toBe(true);
    const res = await api(b.origin, ip).get(dlPath(d.downloadUrl));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment;/);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBeGreaterThan(10_000);
    expect(body.subarray(4, 8).toString("latin1")).toBe("ftyp");
    // single use is shared too: the link that B delivered in full is refused by A
    const replay = await api(a.origin, ip).get(dlPath(d.downloadUrl));
    expect(replay.status).toBe(410);
  });

  it("progress of a download streamed by one instance is followed through the other", async () => {
    const [a, b] = cluster.instances;
    const ip = clientIp();
    const d = await createDownload(b.origin, ip, SAMPLE_LINK, "mp4-360");
    const progress = readProgress(`${b.origin}/api/v1/downloads/${d.id}/progress`, 60_000);
    await new Promise((r) => setTimeout(r, 300)); // subscribed before the first byte
    const res = await api(a.origin, ip).get(dlPath(d.downloadUrl));
    expect(res.status).toBe(200);
    const length = (await res.arrayBuffer()).byteLength;
    const events = await progress;
    expect(events[0]?.state).toBe("queued");
    expect(events.at(-1)).toMatchObject({ state: "done", bytes: length });
    // and through nginx, wherever it lands
    const again = await readProgress(`${cluster.origin}/api/v1/downloads/${d.id}/progress`, 10_000);
    expect(again.at(-1)).toMatchObject({ state: "done", bytes: length });
  });

  it("a comment posted through one instance is read through the other", async () => {
    const marker = `two-instance comment ${Date.now()}`;
    // through nginx: React Router checks that an action's Origin matches its Host
    const post = await fetch(`${cluster.origin}/blog/${ARTICLE_SLUG}.data`, {
      method: "POST",
      headers: { origin: cluster.origin, "sec-fetch-site": "same-origin", "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "comment", formKey: "root", name: "Scale", email: "scale@example.test", content: marker }).toString(),
    });
    expect(post.status, await post.clone().text()).toBe(200);
    const wrote = cluster.instanceAt(post.headers.get("x-served-by"));
    expect(wrote).toBeDefined();
    const other = cluster.instances.find((s) => s !== wrote)!;
    const page = await api(other.origin, clientIp()).get(`/blog/${ARTICLE_SLUG}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(marker);
  });

  // last: it stops an instance
  it("stopping the instance that streams fails that download loudly; the other keeps serving", async () => {
    const ip = clientIp();
    const link = `https://${SLOW_HOST}/clip.mp4`;
    const resolved = await api(cluster.origin, ip).post("/api/v1/resolve", { url: link });
    expect(resolved.status, await resolved.clone().text()).toBe(200);
    const { formats } = (await resolved.json()) as { formats: Array<{ id: string; available: boolean; premium: boolean }> };
    const format = formats.find((f) => f.available && !f.premium && f.id.startsWith("mp4-"))!;
    expect(format).toBeDefined();
    const d = await createDownload(cluster.origin, ip, link, format.id);
    slowHost.slow = true;
    const { res, firstChunk, outcome } = await streamingGet(d.downloadUrl);
    expect(res.statusCode).toBe(200);
    const streaming = cluster.instanceAt(String(res.headers["x-served-by"] ?? ""));
    expect(streaming, `x-served-by: ${String(res.headers["x-served-by"])}`).toBeDefined();
    const other = cluster.instances.find((s) => s !== streaming)!;
    await firstChunk;
    await streaming!.kill9();
    const result = await outcome;
    // a broken connection, never a shorter file that looks complete
    expect(result.ok).toBe(false);
    expect(result.received).toBeLessThan(Number(res.headers["content-length"] ?? Infinity));
    slowHost.slow = false;

    // the other instance serves the whole journey through nginx
    expect((await fetch(`${other.origin}/healthz`)).status).toBe(200);
    const next = await createDownload(cluster.origin, clientIp(), SAMPLE_LINK, "mp4-360");
    const full = await fetch(next.downloadUrl);
    expect(full.status).toBe(200);
    expect(cluster.instanceAt(full.headers.get("x-served-by"))).toBe(other);
    expect((await full.arrayBuffer()).byteLength).toBeGreaterThan(10_000);
    expect((await fetch(`${cluster.origin}/`)).status).toBe(200);
  });
});
