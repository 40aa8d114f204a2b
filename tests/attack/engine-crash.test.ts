import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaPlaylist, refusedPort, startHostileOrigin, type HostileOrigin } from "./support/engine-origin.ts";
import { startServer, type AttackServer } from "./support/server.ts";

/**
 * Issue 27, finding 1: a burst of anonymous `GET /api/v1/download` of HLS playlists whose first
 * segment fails at once (a 404, a refused port) ended the process with an 'error' event nobody
 * listened to (the prober's input, while the probe waited for its spawn turn). Every request
 * must be answered with an error and the server must live on.
 */
const RUN = randomBytes(3).toString("hex");
const BURST = 32;
const ROUNDS = 3;

let server: AttackServer;
let origin: HostileOrigin;
let closedPort: number;

beforeAll(async () => {
  closedPort = await refusedPort();
  origin = await startHostileOrigin((_req, res, url) => {
    const m = /^\/(404|refused)\/([\w-]+)\/index\.m3u8$/.exec(url.pathname);
    if (!m) {
      // every segment is missing
      res.writeHead(404, { "content-type": "text/plain" }).end("no such segment");
      return;
    }
    const segments = Array.from({ length: 5 }, (_, i) => (m[1] === "404" ? `/seg/${m[2]}-${i}.ts` : `http://127.0.0.1:${closedPort}/seg/${m[2]}-${i}.ts`));
    res.writeHead(200, { "content-type": "application/vnd.apple.mpegurl" }).end(mediaPlaylist(segments));
  });
  server = await startServer({ preferredPort: 3330, env: { ALLOW_PRIVATE_SOURCES: "true" } });
}, 200_000);

afterAll(async () => {
  await server?.stop();
  await origin?.close();
});

async function download(kind: "404" | "refused", n: string): Promise<number> {
  const link = `${origin.origin}/${kind}/${RUN}-${n}/index.m3u8`;
  const res = await fetch(`${server.origin}/api/v1/download?url=${encodeURIComponent(link)}&format=mp4-720`, { redirect: "manual", signal: AbortSignal.timeout(60_000) });
  await res.arrayBuffer();
  return res.status;
}

describe("a burst of downloads whose segments fail", () => {
  it("is answered with errors while the server lives on", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const statuses = await Promise.all(Array.from({ length: BURST }, (_, i) => download(i % 2 === 0 ? "404" : "refused", `${round}-${i}`).catch(() => 0)));
      expect(server.exited(), `the server ended during round ${round}:\n${server.output().slice(-3000)}`).toBeNull();
      // refused (4xx/5xx), never a redirect to a link, never a dropped connection
      for (const status of statuses) expect(status).toBeGreaterThanOrEqual(400);
    }
    expect(origin.hits(`/seg/${RUN}-0-0-0.ts`)).toBeGreaterThan(0);
    const health = await fetch(`${server.origin}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    expect(server.output()).not.toMatch(/Unhandled 'error' event/);
  }, 180_000);
});
