import { createServer, type AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { connectRedis } from "./redis-client.ts";

it("a Redis that does not answer at start stops the server with a message naming REDIS_URL", async () => {
  // a port nobody listens on: taken, then released
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const p = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });
  const errors: string[] = [];
  const logger = { error: (_o: object, m: string) => void errors.push(m) };
  await expect(connectRedis({ url: `redis://127.0.0.1:${port}`, prefix: "x:", logger })).rejects.toThrow(/^Redis at REDIS_URL does not answer: .*ECONNREFUSED/);
  // logged once, not once per attempt
  expect(errors).toEqual(["redis connection error"]);
}, 20_000);
