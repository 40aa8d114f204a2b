import { describe, expect, it } from "vitest";
import { createProgressRegistry, type DownloadProgress } from "./progress-registry.ts";

describe("progress registry", () => {
  it("tells subscribers the state at once and then on changes", () => {
    let t = 0;
    const reg = createProgressRegistry({ intervalMs: 100, now: () => t });
    reg.create("d1", 1000);
    const seen: DownloadProgress[] = [];
    const off = reg.subscribe("d1", (p) => seen.push(p));
    reg.start("d1", 1000);
    t = 200;
    reg.addBytes("d1", 400);
    t = 250;
    reg.addBytes("d1", 100); // throttled
    reg.finish("d1", "done");
    off();
    expect(seen.map((p) => p.state)).toEqual(["queued", "streaming", "streaming", "done"]);
    expect(seen.at(-1)).toEqual({ bytes: 500, total: 1000, state: "done" });
  });

  it("unknown ids are download.not_found", () => {
    const reg = createProgressRegistry();
    expect(() => reg.subscribe("nope", () => {})).toThrow(expect.objectContaining({ code: "download.not_found" }));
  });

  it("forgets finished downloads after the retention time", () => {
    let t = 0;
    const reg = createProgressRegistry({ retainMs: 1000, now: () => t });
    reg.create("old", null);
    reg.finish("old", "done");
    t = 5000;
    reg.create("new", null);
    expect(reg.has("old")).toBe(false);
    expect(reg.size()).toBe(1);
  });
});
