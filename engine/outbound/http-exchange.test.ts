import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpExchange, type ExchangeAttempt } from "./http-exchange.ts";

let server: http.Server;
let base: string;
const seenHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seenHeaders.push(req.headers);
    if (req.url === "/silent") return; // never answers
    if (req.url === "/stall") {
      res.writeHead(200, { "content-length": "1000" });
      res.write("x".repeat(10)); // then nothing
      return;
    }
    res.writeHead(200).end("ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const exchanger = createHttpExchange({ resolve: async () => [{ address: "127.0.0.1", family: 4 }], userAgent: "test-agent" });
afterAll(() => exchanger.close());
const direct = { guarded: false, originalHost: null };

async function text(res: Readable): Promise<string> {
  let s = "";
  for await (const c of res) s += String(c);
  return s;
}

// capped: media bytes over the media exchange (media-exchange.ts); uncapped: Node's client
describe.each([
  ["Node's HTTP client", false],
  ["the media exchange", true],
])("http exchange through %s", (_name, capped) => {
  const get: ExchangeAttempt = { method: "GET", headers: new Headers(), body: null, capped };

  it("sends the default user agent and the mapped host's original name", async () => {
    const res = await exchanger.exchange(new URL(`${base}/ok`), { guarded: false, originalHost: "cdn.example.com" }, get, 5_000, undefined);
    expect(await text(res)).toBe("ok");
    expect(seenHeaders.at(-1)).toMatchObject({ "user-agent": "test-agent", "x-forwarded-host": "cdn.example.com" });
  });

  it("connects a guarded hop through the checked lookup (a name resolving to a private address is refused)", async () => {
    const guarded = createHttpExchange({ resolve: async () => [{ address: "127.0.0.1", family: 4 }], userAgent: "t" });
    try {
      const port = new URL(base).port;
      await expect(guarded.exchange(new URL(`http://media.example:${port}/ok`), { guarded: true, originalHost: null }, get, 5_000, undefined)).rejects.toMatchObject({
        code: "link.blocked_address",
      });
    } finally {
      guarded.close();
    }
  });

  it("times out waiting for headers, and again when the body stalls", async () => {
    await expect(exchanger.exchange(new URL(`${base}/silent`), direct, get, 150, undefined)).rejects.toMatchObject({ code: "upstream.timeout" });
    const res = await exchanger.exchange(new URL(`${base}/stall`), direct, get, 150, undefined);
    await expect(text(res)).rejects.toMatchObject({ code: "upstream.timeout" });
  });

  it("an abort tears down the request before headers and the body after them", async () => {
    const before = new AbortController();
    const pending = exchanger.exchange(new URL(`${base}/silent`), direct, get, 5_000, before.signal);
    setTimeout(() => before.abort(new Error("client left")), 30);
    await expect(pending).rejects.toThrow("client left");
    const during = new AbortController();
    const res = await exchanger.exchange(new URL(`${base}/stall`), direct, get, 5_000, during.signal);
    setTimeout(() => during.abort(new Error("client left")), 30);
    await expect(text(res)).rejects.toThrow("client left");
    expect(res.destroyed).toBe(true);
  });
});
