import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { memoryPlatformHealth, type PlatformHealthStore } from "./health-store.server.ts";
import { createPlatformNotices } from "./platform-notices.server.ts";
import { PlatformNotices } from "./platform-notices.tsx";

const quiet = { warn: () => {} };
const settle = () => new Promise((r) => setTimeout(r, 0));

async function failTimes(store: PlatformHealthStore, at: number, n: number, code = "video.bot_check") {
  for (let i = 0; i < n; i++) await store.record("youtube", { at: at - i, ok: false, code, source: "canary" });
}

describe("the pages' platform notices", () => {
  it("are read in the background, shown from the next page view, and read again after 15 seconds", async () => {
    let t = 1_800_000_000_000;
    const store = memoryPlatformHealth();
    const notices = createPlatformNotices({ store, ytdlp: false, logger: quiet, now: () => t });
    await failTimes(store, t, 3);
    expect(notices.current()).toEqual([]);
    await settle();
    expect(notices.current()).toEqual([{ id: "youtube", status: "down", detail: "YouTube downloads are not working right now; we're on it. YouTube is asking our server to prove it is not a bot." }]);
    await store.record("youtube", { at: t, ok: true, code: null, source: "resolve" });
    t += 14_000;
    notices.current();
    await settle();
    expect(notices.current()[0]?.status).toBe("down");
    t += 1_000;
    notices.current();
    await settle();
    expect(notices.current()).toEqual([{ id: "youtube", status: "degraded", detail: expect.stringContaining("YouTube downloads are less reliable than usual right now: 3 of the last 4 attempts failed.") }]);
  });

  it("keep the last reading when the record cannot be read", async () => {
    let t = 1_800_000_000_000;
    const store = memoryPlatformHealth();
    let broken = false;
    const flaky: PlatformHealthStore = { record: (p, o) => store.record(p, o), read: (p) => (broken ? Promise.reject(new Error("redis down")) : store.read(p)) };
    const warned: unknown[] = [];
    const notices = createPlatformNotices({ store: flaky, ytdlp: false, logger: { warn: (o: unknown) => warned.push(o) }, now: () => t });
    await failTimes(store, t, 3);
    notices.current();
    await settle();
    broken = true;
    t += 20_000;
    notices.current();
    await settle();
    expect(notices.current().map((n) => n.status)).toEqual(["down"]);
    expect(warned).toHaveLength(1);
  });

  it("render each platform's words, and nothing when all is well", () => {
    expect(renderToString(<PlatformNotices notices={[]} />)).toBe("");
    const html = renderToString(<PlatformNotices notices={[{ id: "youtube", status: "down", detail: "YouTube downloads are not working right now; we're on it." }]} />);
    expect(html).toContain('role="status"');
    expect(html).toContain('data-platform="youtube"');
    expect(html).toContain("YouTube downloads are not working right now; we&#x27;re on it.");
  });
});
