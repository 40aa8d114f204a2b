import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { startFakePotProvider, type FakePotProvider } from "#tests/mocks/pot-provider.ts";
import { createPoTokenProvider, providerForLog } from "./po-token.ts";

const logger = pino({ level: "silent" });
const HOUR = 3600 * 1000;

describe("proof-of-origin token provider (bgutil protocol)", () => {
  let fake: FakePotProvider | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it("asks once per video id, bound to it, and reuses the token until it expires; then asks again", async () => {
    fake = await startFakePotProvider({ ttlMs: HOUR });
    let clock = Date.now();
    const provider = createPoTokenProvider({ baseUrl: fake.url, logger, now: () => clock });

    expect(await provider.tokenFor("aaaaaaaaaaa")).toBe("mock-pot-aaaaaaaaaaa-1");
    expect(await provider.tokenFor("aaaaaaaaaaa")).toBe("mock-pot-aaaaaaaaaaa-1");
    expect(await provider.tokenFor("bbbbbbbbbbb")).toBe("mock-pot-bbbbbbbbbbb-1");
    expect(fake.calls()).toEqual(["aaaaaaaaaaa", "bbbbbbbbbbb"]);

    clock += HOUR + 1000;
    expect(await provider.tokenFor("aaaaaaaaaaa")).toBe("mock-pot-aaaaaaaaaaa-2");
    expect(fake.calls()).toEqual(["aaaaaaaaaaa", "bbbbbbbbbbb", "aaaaaaaaaaa"]);
  });

  it("concurrent resolves of one video share one request", async () => {
    fake = await startFakePotProvider();
    const provider = createPoTokenProvider({ baseUrl: fake.url, logger });
    const tokens = await Promise.all([provider.tokenFor("ccccccccccc"), provider.tokenFor("ccccccccccc"), provider.tokenFor("ccccccccccc")]);
    expect(tokens).toEqual(["mock-pot-ccccccccccc-1", "mock-pot-ccccccccccc-1", "mock-pot-ccccccccccc-1"]);
    expect(fake.calls()).toHaveLength(1);
  });

  it("keeps at most maxEntries tokens, forgetting the least recently used", async () => {
    fake = await startFakePotProvider();
    const provider = createPoTokenProvider({ baseUrl: fake.url, logger, maxEntries: 2 });
    await provider.tokenFor("v1");
    await provider.tokenFor("v2");
    await provider.tokenFor("v1"); // v1 used last: v2 is the one to go
    await provider.tokenFor("v3");
    await provider.tokenFor("v1");
    expect(fake.calls()).toEqual(["v1", "v2", "v3"]);
    await provider.tokenFor("v2");
    expect(fake.calls()).toEqual(["v1", "v2", "v3", "v2"]);
  });

  it("a hanging provider costs one short timeout, then rests: no token, and no wait on the next resolves", async () => {
    fake = await startFakePotProvider({ behaviour: "hang" });
    let clock = Date.now();
    const provider = createPoTokenProvider({ baseUrl: fake.url, logger, timeoutMs: 300, restMs: 30_000, now: () => clock });
    const started = performance.now();
    expect(await provider.tokenFor("ddddddddddd")).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await provider.tokenFor("eeeeeeeeeee")).toBeUndefined();
    expect(fake.calls()).toEqual(["ddddddddddd"]);

    fake.setBehaviour("ok");
    clock += 31_000;
    expect(await provider.tokenFor("eeeeeeeeeee")).toBe("mock-pot-eeeeeeeeeee-1");
  });

  it.each([
    ["answers 500", "error" as const],
    ["is not listening", "down" as const],
  ])("a provider that %s gives no token", async (_name, how) => {
    fake = await startFakePotProvider();
    const url = fake.url;
    if (how === "down") {
      await fake.close();
      fake = undefined;
    } else fake.setBehaviour(how);
    const provider = createPoTokenProvider({ baseUrl: url, logger, timeoutMs: 1000 });
    expect(await provider.tokenFor("fffffffffff")).toBeUndefined();
  });

  it("refuses a token bound to another video", async () => {
    const provider = createPoTokenProvider({
      baseUrl: "http://127.0.0.1:1",
      logger,
      fetch: async () => Response.json({ poToken: "tok", contentBinding: "someoneelse", expiresAt: new Date(Date.now() + HOUR).toISOString() }),
    });
    expect(await provider.tokenFor("ggggggggggg")).toBeUndefined();
  });

  it("sends credentials in the URL as a Basic header, and never logs them", async () => {
    let seen: { url: string; authorization: string | null } | undefined;
    const provider = createPoTokenProvider({
      baseUrl: "http://op:s3cret@pot.internal:4416/base/",
      logger,
      fetch: async (input, init) => {
        seen = { url: String(input), authorization: new Headers(init?.headers).get("authorization") };
        return Response.json({ poToken: "tok", contentBinding: "hhhhhhhhhhh" });
      },
    });
    expect(await provider.tokenFor("hhhhhhhhhhh")).toBe("tok");
    expect(seen).toEqual({ url: "http://pot.internal:4416/base/get_pot", authorization: `Basic ${Buffer.from("op:s3cret").toString("base64")}` });
    expect(providerForLog("http://op:s3cret@pot.internal:4416/base/")).toBe("http://pot.internal:4416/base/");
  });

  it("refuses a provider URL that is not http(s)", () => {
    expect(() => createPoTokenProvider({ baseUrl: "file:///etc/passwd", logger })).toThrow(/http/);
  });
});
