import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dlPath, get, startEngineFixture, WATCH_URL, type EngineFixture } from "./engine-fixture.ts";
import { workingMediaChildren } from "../../support/media-children.ts";

/**
 * Issue 13 §3: a download fetching parallel ranges from a CDN that throttles each connection
 * still tears everything down when its client leaves: no ffmpeg left, no upstream response open.
 */
let fx: EngineFixture;
let server: { origin: string; close(): Promise<void> };

const ourFfmpegs = async (): Promise<number> => (await workingMediaChildren()).length;

beforeAll(async () => {
  // 64 KiB/s per connection, 32 KiB ranges: the probe shows the throttle, the rest goes in parallel
  fx = await startEngineFixture({ upstreamBytesPerSecond: 64 * 1024, config: { limits: { chunkBytes: 32 * 1024, rangeConcurrency: 4 } } });
  server = await fx.serve();
});
afterAll(async () => {
  await server?.close();
  await fx?.close();
});

describe("parallel ranges and teardown", () => {
  it("a remux from a throttling CDN completes with its inputs fetched in parallel ranges, never more than the cap", async () => {
    const throttle = fx.throttle!;
    throttle.resetPeak();
    const d = await fx.engine.createDownload({ url: WATCH_URL, format: "mp4-360", caller: { kind: "anonymous" }, ip: "192.0.2.10" });
    const res = await get(server.origin + dlPath(d.downloadUrl));
    expect(res.status).toBe(200);
    expect(res.outcome).toBe("end");
    expect(res.body.subarray(4, 8).toString("latin1")).toBe("ftyp");
    // video and audio, each more than its current range plus the prefetched one, each ≤ 4
    expect(throttle.peakInFlight()).toBeGreaterThan(4);
    expect(throttle.peakInFlight()).toBeLessThanOrEqual(8);
  }, 60_000);

  it("a client leaving during parallel fetching leaves no ffmpeg and no upstream response open", async () => {
    const throttle = fx.throttle!;
    const d = await fx.engine.createDownload({ url: WATCH_URL, format: "mp4-360", caller: { kind: "anonymous" }, ip: "192.0.2.11" });
    const pending = get(server.origin + dlPath(d.downloadUrl), {}, { abortAfterBytes: 1 });
    // leave once parallel ranges are in flight
    await expect.poll(() => throttle.inFlight(), { timeout: 10_000, interval: 20 }).toBeGreaterThan(2);
    const res = await pending;
    expect(res.outcome).toBe("error");
    await expect.poll(() => throttle.inFlight(), { timeout: 5000 }).toBe(0);
    await expect.poll(() => ourFfmpegs(), { timeout: 5000 }).toBe(0);
  }, 60_000);
});
