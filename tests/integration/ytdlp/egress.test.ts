/**
 * yt-dlp's requests leave by the egress of the resolve they serve (issue 32 §3, decision 057):
 * a stand-in yt-dlp fetches a page through the `--proxy` the engine gave it; with an egress pool
 * of one HTTP CONNECT proxy (dialling from 127.0.0.2), the page's server hears it from the proxy.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createEngine, type Engine } from "#engine/index.ts";
import { createEgressPool, parseOutboundProxies } from "#engine/outbound/egress.ts";
import { startConnectProxy, type FakeProxy } from "#tests/mocks/proxies.ts";
import { writeFakeYtdlp } from "#tests/mocks/ytdlp.ts";
import { sourceContext } from "../youtube/helpers.ts";

let pages: http.Server;
let proxy: FakeProxy;
let engine: Engine | undefined;
const heard: Array<{ path: string; from: string }> = [];

beforeAll(async () => {
  pages = http.createServer((req, res) => {
    heard.push({ path: req.url ?? "", from: req.socket.remoteAddress ?? "" });
    res.writeHead(200, { "content-type": "text/html" }).end("<title>a page</title>");
  });
  await new Promise<void>((r) => pages.listen(0, "127.0.0.1", r));
  proxy = await startConnectProxy({ localAddress: "127.0.0.2", auth: { username: "op", password: "pw" } });
  const fake = await writeFakeYtdlp({ type: "through-proxy", url: "http://www.facebook.com/watch/page" });
  const { config } = sourceContext({ hostMap: `www.facebook.com=http://127.0.0.1:${(pages.address() as AddressInfo).port}` });
  const egress = createEgressPool({ proxies: parseOutboundProxies(proxy.url), resolve: async () => [] });
  engine = await createEngine({ ...config, ytdlpPath: fake.path }, { egress });
});
afterAll(async () => {
  await engine?.close();
  await proxy?.close();
  await new Promise<void>((r) => (pages ? pages.close(() => r()) : r()));
});

it("the page yt-dlp asks for is fetched through the resolve's egress", async () => {
  // the stand-in fails once it has the page (it prints no document): what matters is the way the request went
  await expect(engine!.resolve("https://www.facebook.com/watch/?v=1234567890", { kind: "anonymous" })).rejects.toBeTruthy();
  expect(heard).toEqual([{ path: "/watch/page", from: "127.0.0.2" }]);
  expect(proxy.tunnels().map((t) => t.target)).toEqual([`127.0.0.1:${(pages.address() as AddressInfo).port}`]);
});
