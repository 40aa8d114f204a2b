import { describe, expect, it } from "vitest";
import { playlistPlanOf } from "./downloader-offer.server.ts";

describe("playlistPlanOf", () => {
  it("gives Ultimate the ZIP with its link limit and the premium formats", () => {
    const plan = playlistPlanOf("ultimate");
    expect(plan).toMatchObject({ canBulk: true, maxLinks: 50 });
    expect(plan.formats.map((f) => f.id)).toEqual(expect.arrayContaining(["mp4-360", "mp4-2160"]));
  });

  it("gives visitors and the other plans no ZIP, and visitors no premium format", () => {
    for (const plan of [null, "free", "basic", "pro"] as const) expect(playlistPlanOf(plan)).toMatchObject({ canBulk: false, maxLinks: 0 });
    const visitor = playlistPlanOf(null).formats.map((f) => f.id);
    expect(visitor).toContain("mp4-720");
    expect(visitor).not.toContain("mp4-2160");
  });
});
