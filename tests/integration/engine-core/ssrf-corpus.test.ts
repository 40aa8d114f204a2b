import { lookup } from "node:dns/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOutbound, type Outbound, type ResolveHost } from "#engine/outbound/outbound-fetch.ts";
import { silentLogger, startServer, type TestServer } from "./helpers.ts";

/**
 * The SSRF corpus (issue 3 §5 and §7): every attack link must be refused before a single byte
 * reaches the trap server on 127.0.0.1.
 */
let trap: TestServer;
let redirector: TestServer;
let outbound: Outbound;

// Names the "attacker" controls: they resolve to private addresses. Everything else: real DNS (localhost).
const attackerDns: Record<string, Array<{ address: string; family: number }>> = {
  "private.attacker.test": [{ address: "127.0.0.1", family: 4 }],
  "mixed.attacker.test": [
    { address: "93.184.216.34", family: 4 },
    { address: "127.0.0.1", family: 4 },
  ],
  "mapped.attacker.test": [{ address: "::ffff:127.0.0.1", family: 6 }],
  "v6.attacker.test": [{ address: "::1", family: 6 }],
  "metadata.attacker.test": [{ address: "169.254.169.254", family: 4 }],
  "lan.attacker.test": [{ address: "192.168.0.10", family: 4 }],
  "127.0.0.1.nip.test": [{ address: "127.0.0.1", family: 4 }],
};
const resolve: ResolveHost = async (name) => attackerDns[name] ?? lookup(name, { all: true });

beforeAll(async () => {
  trap = await startServer((_req, res) => res.end("you should not be here"));
  redirector = await startServer((req, res) => {
    const target = new URL(req.url ?? "/", "http://x").searchParams.get("to") ?? "/";
    res.writeHead(302, { location: target }).end();
  });
  outbound = createOutbound({
    // an allowed "public" host, mapped to the local redirector (mapped targets are trusted)
    hostMap: `redirector.example=${redirector.origin}`,
    allowPrivate: false,
    timeoutMs: 2000,
    retries: 0,
    logger: silentLogger,
    resolve,
  });
});

afterAll(async () => {
  outbound.close();
  await trap.close();
  await redirector.close();
});

function corpus(): string[] {
  const p = trap.port;
  const direct = [
    `http://127.0.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://localhost.:${p}/`,
    `http://LOCALHOST:${p}/`,
    `http://2130706433:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://0x7f.0.0.1:${p}/`,
    `http://127.1:${p}/`,
    `http://127.000.000.001:${p}/`,
    `http://[::1]:${p}/`,
    `http://[0:0:0:0:0:0:0:1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://0:${p}/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://[fe80::1]:${p}/`,
    `http://[fd00::1]:${p}/`,
    `http://10.0.0.1:${p}/`,
    `http://172.16.0.1:${p}/`,
    `http://172.31.255.254:${p}/`,
    `http://192.168.1.1:${p}/`,
    `http://100.64.0.1:${p}/`,
    `http://224.0.0.1:${p}/`,
    `http://255.255.255.255:${p}/`,
    `http://[64:ff9b::7f00:1]:${p}/`,
    `http://private.attacker.test:${p}/`,
    `http://mixed.attacker.test:${p}/`,
    `http://mapped.attacker.test:${p}/`,
    `http://v6.attacker.test:${p}/`,
    `http://metadata.attacker.test/latest/meta-data/`,
    `http://lan.attacker.test:${p}/`,
    `http://127.0.0.1.nip.test:${p}/`,
    `https://private.attacker.test:${p}/`,
  ];
  const redirectTargets = [
    `http://127.0.0.1:${p}/`,
    `http://2130706433:${p}/`,
    `http://[::1]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://localhost:${p}/`,
    `http://private.attacker.test:${p}/`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://192.168.1.1/`,
    // two hops: allowed → allowed → private
    `http://redirector.example/hop?to=${encodeURIComponent(`http://0x7f000001:${p}/`)}`,
  ];
  return [...direct, ...redirectTargets.map((t) => `http://redirector.example/r?to=${encodeURIComponent(t)}`)];
}

describe("SSRF corpus", () => {
  it("has at least 20 attack links", () => {
    expect(corpus().length).toBeGreaterThanOrEqual(20);
  });

  it("refuses every attack link with link.blocked_address and the trap sees nothing", async () => {
    const outcomes: Array<{ link: string; code: string }> = [];
    for (const link of corpus()) {
      const code = await outbound.fetch(link).then(
        (r) => `status ${r.status}`,
        (err: unknown) => (err as { code?: string }).code ?? String(err),
      );
      outcomes.push({ link, code });
    }
    expect(outcomes.filter((o) => o.code !== "link.blocked_address")).toEqual([]);
    expect(trap.requests).toEqual([]);
    expect(trap.connections()).toBe(0);
  });

  it("refuses attack links through the Node-stream door too", async () => {
    for (const link of corpus().slice(0, 12)) {
      await expect(outbound.open(link)).rejects.toMatchObject({ code: "link.blocked_address" });
    }
    expect(trap.connections()).toBe(0);
  });

  it("the redirector itself (an allowed, mapped host) was reached for every redirect case", () => {
    expect(redirector.requests.length).toBeGreaterThanOrEqual(10);
  });
});
