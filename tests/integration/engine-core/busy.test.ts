import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";

let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  fx = await startEngineFixture({ upstreamDelayMs: 40, config: { limits: { maxConcurrentDownloads: 1, chunkBytes: 16 * 1024, maxChunkBytes: 16 * 1024 } } });
  server = await fx.serve();
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});

describe("global concurrency limit", () => {
  it("answers busy with 503 and Retry-After while the slots are taken, then frees the slot", async () => {
    const a = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: { kind: "anonymous" }, ip: "192.0.2.1" });
    const b = await fx.engine.createDownload({ url: WATCH_URL, format: "m4a", caller: { kind: "anonymous" }, ip: "192.0.2.2" });
    const first = get(server.origin + dlPath(a.downloadUrl));
    await new Promise((r) => setTimeout(r, 100));
    const second = await get(server.origin + dlPath(b.downloadUrl));
    expect(second.status).toBe(503);
    expect(second.headers["retry-after"]).toBe("5");
    expect(JSON.parse(second.body.toString())).toEqual({ error: { code: "download.busy", message: "The server is busy. Please try again in a few seconds." } });
    expect((await first).outcome).toBe("end");
    const third = await get(server.origin + dlPath(b.downloadUrl));
    expect(third.status).toBe(200);
    expect(third.outcome).toBe("end");
  });
});
