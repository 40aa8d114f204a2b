/** The generated mock media set: every file is what its name promises, and generation is cached and shared. */
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureMockMedia, mockMediaReady } from "#tests/mocks/media.ts";
import { ffprobeFile } from "./helpers.ts";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

describe("ensureMockMedia", () => {
  it("generates the whole set once, shares concurrent calls and reuses it from disk", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-mock-media-"));
    dirs.push(dir);
    // a first start can tell the operator it is about to generate (MOCKS=true logs it)
    expect(mockMediaReady(dir, { durationSeconds: 2 })).toBe(false);
    const [a, b] = await Promise.all([ensureMockMedia(dir, { durationSeconds: 2 }), ensureMockMedia(dir, { durationSeconds: 2 })]);
    expect(mockMediaReady(dir, { durationSeconds: 2 })).toBe(true);
    expect(mockMediaReady(dir, { durationSeconds: 3 })).toBe(false);
    expect(a).toEqual(b);
    expect(a.durationSeconds).toBe(2);
    const entries = await fs.readdir(dir);
    // no temporary folders or locks left behind
    expect(entries).toEqual([path.basename(a.dir)]);

    const stream = async (file: string, type: string) => (await ffprobeFile(file)).streams.find((s) => s.codec_type === type);
    for (const [h, w] of [
      [360, 640],
      [480, 854],
      [720, 1280],
      [1080, 1920],
      [1440, 2560],
      [2160, 3840],
    ] as const) {
      const p = await ffprobeFile(a.video[h]);
      expect(p.streams).toEqual([expect.objectContaining({ codec_name: "h264", width: w, height: h })]);
      expect(Math.abs(p.duration - 2)).toBeLessThan(0.5);
    }
    expect(await stream(a.webmVideo, "video")).toMatchObject({ codec_name: "vp9", width: 1280, height: 720 });
    expect(await stream(a.audioM4a, "audio")).toMatchObject({ codec_name: "aac" });
    expect(await stream(a.audioWebm, "audio")).toMatchObject({ codec_name: "opus" });
    const prog = await ffprobeFile(a.progressive);
    expect(prog.streams.map((s) => s.codec_name).sort()).toEqual(["aac", "h264"]);
    expect(await stream(a.thumbnail, "video")).toMatchObject({ codec_name: "mjpeg", width: 1280, height: 720 });
    for (const file of Object.values(a.manifests)) expect(existsSync(file)).toBe(true);
    expect(await fs.readFile(a.manifests.hlsMaster, "utf8")).toContain('URI="audio/index.m3u8"');
    expect(await fs.readFile(a.manifests.hlsFmp4, "utf8")).toContain("#EXT-X-MAP");
    expect(await fs.readFile(a.manifests.hlsByteRange, "utf8")).toContain("#EXT-X-BYTERANGE");
    expect(await fs.readFile(a.manifests.dashTimeline, "utf8")).toContain("$Time$");
    expect(await fs.readFile(a.manifests.dashList, "utf8")).toContain("<SegmentList");
    expect(await fs.readFile(a.manifests.dashSegmentBase, "utf8")).toContain("<SegmentBase");

    // a second call (as from another process) finds the finished set on disk
    const t = Date.now();
    const again = await ensureMockMedia(dir, { durationSeconds: 2 });
    expect(again.dir).toBe(a.dir);
    expect(Date.now() - t).toBeLessThan(500);
  }, 120_000);

  it("rejects a non-positive duration", async () => {
    await expect(ensureMockMedia(os.tmpdir(), { durationSeconds: 0 })).rejects.toThrow(RangeError);
  });
});
