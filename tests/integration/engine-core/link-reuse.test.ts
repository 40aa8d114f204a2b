import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSpawnGate, type SpawnGate } from "#engine/media/spawn-gate.ts";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";

/**
 * Issue 8: one signed link was downloaded 320 times in 1.5 s. A link is one download: streamed in
 * full once (plus Range resumes), counted against fair use when it streams, with at most two
 * streams per link and a cap per IP (docs/decisions/010-download-links-are-single-use.md).
 */
const anonymous = { kind: "anonymous" as const };
const USED = { error: { code: "download.link_used", message: "This download link has already been used. Start the download again from the page." } };
const LIMITED = { error: { code: "download.rate_limited", message: "You've made too many requests. Please wait a moment and try again." } };

let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };
let audio: Buffer;
const logLines: Array<Record<string, unknown>> = [];
const gateCalls: string[] = [];

beforeAll(async () => {
  const logger = pino(
    { level: "debug" },
    new Writable({
      write(chunk: Buffer, _enc, cb) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        cb();
      },
    }),
  );
  const inner = createSpawnGate();
  const spawnGate: SpawnGate = {
    turn: (signal) => {
      gateCalls.push("turn");
      return inner.turn(signal);
    },
    waiting: () => inner.waiting(),
  };
  fx = await startEngineFixture({
    // a slow CDN (25 ms per 8 KB chunk), so concurrent streams overlap
    upstreamDelayMs: 25,
    config: { logger, limits: { chunkBytes: 8 * 1024, maxChunkBytes: 8 * 1024, downloadsPerIpPerHour: 5, maxConcurrentDownloadsPerIp: 3 } },
    deps: { spawnGate },
  });
  server = await serveWithClientIp(fx);
  audio = await readFile(fx.media.audioM4a);
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});
afterEach(() => {
  logLines.length = 0;
});

/** Like fx.serve(), but passes the client address from `x-test-ip`, as the host passes `req.ip`. */
async function serveWithClientIp(f: EngineFixture): Promise<{ origin: string; close(): Promise<void> }> {
  const srv = http.createServer((req, res) => {
    const m = /^\/api\/v1\/dl\/([^/?]+)/.exec(req.url ?? "");
    if (!m) {
      res.writeHead(404).end();
      return;
    }
    void f.engine.handleDownload(m[1]!, req, res, { ip: String(req.headers["x-test-ip"] ?? req.socket.remoteAddress) });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

let nextIp = 1;
/** each test its own client address (fair use is per IP) */
const freshIp = () => `198.51.100.${nextIp++}`;
/** the bytes are compared with the source's: the file as it is, without tags */
const link = async (format = "m4a") => fx.engine.createDownload({ url: WATCH_URL, format, caller: anonymous, ip: "203.0.113.1", options: { tags: false } });
const fetchAs = (ip: string, url: string, headers: Record<string, string> = {}, opts: { abortAfterBytes?: number } = {}) =>
  get(server.origin + dlPath(url), { "x-test-ip": ip, ...headers }, opts);

describe("a signed link is one download", () => {
  it("streams in full once; replays get 410 download.link_used", async () => {
    const ip = freshIp();
    const d = await link();
    const first = await fetchAs(ip, d.downloadUrl);
    expect(first.status).toBe(200);
    expect(first.body.equals(audio)).toBe(true);
    for (let i = 0; i < 5; i++) {
      const replay = await fetchAs(ip, d.downloadUrl);
      expect(replay.status).toBe(410);
      expect(JSON.parse(replay.body.toString())).toEqual(USED);
    }
    // `bytes=0-` is a fresh download too
    expect((await fetchAs(ip, d.downloadUrl, { range: "bytes=0-" })).status).toBe(410);
  });

  it("resumes with Range after the connection broke, without counting another download", async () => {
    const ip = freshIp();
    const d = await link();
    const broken = await fetchAs(ip, d.downloadUrl, {}, { abortAfterBytes: 20_000 });
    expect(broken.outcome).toBe("error");
    const from = broken.body.length;
    const rest = await fetchAs(ip, d.downloadUrl, { range: `bytes=${from}-` });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([broken.body, rest.body]).equals(audio)).toBe(true);
    // a second resume (a download manager checking the tail) is still fine
    expect((await fetchAs(ip, d.downloadUrl, { range: "bytes=-100" })).status).toBe(206);
  });

  it("lets a full download that failed be started again (browser retry without Range)", async () => {
    const ip = freshIp();
    const d = await link();
    const broken = await fetchAs(ip, d.downloadUrl, {}, { abortAfterBytes: 10_000 });
    expect(broken.outcome).toBe("error");
    await new Promise((r) => setTimeout(r, 100));
    const again = await fetchAs(ip, d.downloadUrl);
    expect(again.status).toBe(200);
    expect(again.body.equals(audio)).toBe(true);
    expect((await fetchAs(ip, d.downloadUrl)).status).toBe(410);
  });

  it("refuses endless Range replays once the link served twice its file", async () => {
    const ip = freshIp();
    const d = await link();
    const half = Math.floor(audio.length / 2);
    let status = 0;
    let served = 0;
    for (let i = 0; i < 10 && status !== 410; i++) {
      const r = await fetchAs(ip, d.downloadUrl, { range: `bytes=1-${half}` });
      status = r.status;
      served += r.body.length;
    }
    expect(status).toBe(410);
    expect(served).toBeGreaterThanOrEqual(2 * audio.length - half);
    expect(served).toBeLessThanOrEqual(2 * audio.length + half);
  });

  it("a HEAD request does not use the link up", async () => {
    const ip = freshIp();
    const d = await link();
    const head = await new Promise<number>((resolve, reject) => {
      const req = http.request(server.origin + dlPath(d.downloadUrl), { method: "HEAD", headers: { "x-test-ip": ip } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(head).toBe(200);
    expect((await fetchAs(ip, d.downloadUrl)).status).toBe(200);
  });
});

describe("fair use counts downloads when they stream", () => {
  it("counts full downloads per IP at stream time; creating links alone does not", async () => {
    const ip = freshIp();
    // eight links created: creation is not a download (limit is 5 per hour)
    const links = await Promise.all(Array.from({ length: 8 }, () => link()));
    for (const d of links.slice(0, 5)) expect((await fetchAs(ip, d.downloadUrl)).status).toBe(200);
    const sixth = await fetchAs(ip, links[5]!.downloadUrl);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers["retry-after"])).toBeGreaterThan(3000);
    expect(JSON.parse(sixth.body.toString())).toEqual(LIMITED);
    // an IP at its limit is told when it creates a link, before the page navigates to it
    await expect(fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: anonymous, ip })).rejects.toMatchObject({ code: "download.rate_limited" });
    // another address still downloads
    expect((await fetchAs(freshIp(), links[5]!.downloadUrl)).status).toBe(200);
  });

  it("does not count Range resumes or refused replays", async () => {
    const ip = freshIp();
    const d = await link();
    await fetchAs(ip, d.downloadUrl);
    // five resumes of the same download are not five downloads
    for (let i = 0; i < 5; i++) expect((await fetchAs(ip, d.downloadUrl, { range: "bytes=100-199" })).status).toBe(206);
    // replays are refused before they count
    for (let i = 0; i < 5; i++) expect((await fetchAs(ip, d.downloadUrl)).status).toBe(410);
    for (let i = 0; i < 4; i++) expect((await fetchAs(ip, (await link()).downloadUrl)).status).toBe(200);
    expect((await fetchAs(ip, (await link()).downloadUrl)).status).toBe(429);
  });
});

describe("concurrent streams", () => {
  it("allows two streams per link; a third gets 429 with Retry-After", async () => {
    const ip = freshIp();
    const d = await link();
    const a = fetchAs(ip, d.downloadUrl, { range: "bytes=1-" });
    const b = fetchAs(freshIp(), d.downloadUrl, { range: "bytes=2-" });
    await new Promise((r) => setTimeout(r, 150));
    const c = await fetchAs(freshIp(), d.downloadUrl, { range: "bytes=3-" });
    expect(c.status).toBe(429);
    expect(c.headers["retry-after"]).toBe("5");
    expect(JSON.parse(c.body.toString())).toEqual(LIMITED);
    expect((await a).status).toBe(206);
    expect((await b).status).toBe(206);
    // the slots are free again
    expect((await fetchAs(freshIp(), d.downloadUrl, { range: "bytes=4-" })).status).toBe(206);
  });

  it("caps the streams one IP runs at once", async () => {
    const ip = freshIp();
    const links = await Promise.all(Array.from({ length: 4 }, () => link()));
    const running = links.slice(0, 3).map((d) => fetchAs(ip, d.downloadUrl));
    await new Promise((r) => setTimeout(r, 150));
    const fourth = await fetchAs(ip, links[3]!.downloadUrl);
    expect(fourth.status).toBe(429);
    expect(fourth.headers["retry-after"]).toBe("5");
    for (const r of await Promise.all(running)) expect(r.status).toBe(200);
    // refused, not used up: the same link works once a slot is free
    expect((await fetchAs(ip, links[3]!.downloadUrl)).status).toBe(200);
  });
});

describe("spawning and logging", () => {
  it("starts ffmpeg only through the spawn gate (one spawn per event-loop turn)", async () => {
    gateCalls.length = 0;
    const ip = freshIp();
    const mp3 = await fetchAs(ip, (await link("mp3-128")).downloadUrl);
    expect(mp3.status).toBe(200);
    expect(gateCalls).toEqual(["turn"]);
    await fetchAs(ip, (await link("m4a")).downloadUrl); // passthrough: no ffmpeg
    expect(gateCalls).toEqual(["turn"]);
  });

  it("logs downloads by id, never the signed token", async () => {
    const ip = freshIp();
    const d = await link();
    const token = dlPath(d.downloadUrl).split("/").pop()!;
    await fetchAs(ip, d.downloadUrl);
    await fetchAs(ip, d.downloadUrl); // refused replay
    await fetchAs(ip, d.downloadUrl.replace(/.$/, (c) => (c === "A" ? "B" : "A"))); // tampered token
    await new Promise((r) => setTimeout(r, 50));
    const text = JSON.stringify(logLines);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split(".")[0]!);
    const refused = logLines.filter((l) => l.msg === "download refused");
    expect(refused.map((l) => l.code)).toEqual(["download.link_used", "download.link_invalid"]);
    expect(refused[0]!.download).toBe(d.id);
    expect(logLines.find((l) => l.msg === "download ended")).toMatchObject({ download: d.id, state: "done" });
  });
});
