/**
 * OUTBOUND_IPV6_CIDR through the whole engine (issue 32 §3, decision 057): with the prefix
 * `::1/128` (the one IPv6 prefix every test machine can bind), a link resolves and downloads
 * through the `ipv6` egress, every connection bound to a source address inside the prefix,
 * byte for byte. The chooser's spread over a real prefix is unit-tested in
 * engine/outbound/egress.test.ts.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { createEgressPool, parseIpv6Cidr, type EgressPool } from "#engine/outbound/egress.ts";
import { ensureMockMedia, serveMediaFile, type MockMediaSet } from "#tests/mocks/media.ts";
import { MEDIA_CACHE_DIR, sourceContext, startDownloadServer } from "../youtube/helpers.ts";

let media: MockMediaSet;
let files: http.Server;
let downloads: http.Server;
let engine: Engine | undefined;
const peers: string[] = [];
/** each connection the egress made: its pool key (`ipv6|<source address>`) and destination */
const dialed: string[] = [];

/** the pool OUTBOUND_IPV6_CIDR=::1/128 makes, noting each connection it opens */
function countingPool(): EgressPool {
  const pool = createEgressPool({ ipv6: parseIpv6Cidr("::1/128"), resolve: async () => [] });
  return {
    ...pool,
    dialer(ref) {
      const dialer = pool.dialer(ref);
      return dialer && { key: dialer.key, dial: (to, timeoutMs, signal) => (dialed.push(`${dialer.key} ${to.host}`), dialer.dial(to, timeoutMs, signal)) };
    },
  };
}

beforeAll(async () => {
  media = await ensureMockMedia(path.join(MEDIA_CACHE_DIR, "media"));
  // a media host listening on IPv6 loopback only: it notes the address each request came from
  files = http.createServer((req, res) => {
    peers.push(req.socket.remoteAddress ?? "");
    serveMediaFile(req, res, media.progressive, "video/mp4");
  });
  await new Promise<void>((r) => files.listen(0, "::1", r));
  const started = await startDownloadServer(() => engine);
  downloads = started.server;
  const { config } = sourceContext({ hostMap: `media.ipv6.test=http://[::1]:${(files.address() as AddressInfo).port}` });
  engine = await createEngine({ ...config, ytdlpPath: "off", publicUrl: started.origin, egress: { ipv6Cidr: "::1/128" } }, { egress: countingPool() });
}, 180_000);
afterAll(async () => {
  await engine?.close();
  await new Promise<void>((r) => (downloads ? downloads.close(() => r()) : r()));
  files?.closeAllConnections();
  await new Promise<void>((r) => (files ? files.close(() => r()) : r()));
});

it("a direct file resolves and downloads from a source address inside the prefix, byte for byte", async () => {
  const link = "https://media.ipv6.test/files/clip.mp4";
  const created = await engine!.createDownload({ url: link, format: "mp4-360", caller: { kind: "anonymous" }, ip: "127.0.0.1", options: { tags: false } });
  const res = await fetch(created.downloadUrl);
  expect(res.status).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.equals(await readFile(media.progressive))).toBe(true);
  expect(peers.length).toBeGreaterThan(1);
  expect(new Set(peers)).toEqual(new Set(["::1"]));
  // every connection of the resolve and of the download went the ipv6 egress's way, bound inside the prefix
  expect(dialed.length).toBeGreaterThan(0);
  expect(new Set(dialed)).toEqual(new Set(["ipv6|::1 ::1"]));
});
