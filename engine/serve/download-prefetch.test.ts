import { describe, expect, it } from "vitest";
import type { MediaPlan, SegmentRef, UpstreamStream } from "../types.ts";
import { createDownloadPrefetch } from "./download-prefetch.ts";

const refs = (prefix: string, n: number, durationSeconds: number): SegmentRef[] => Array.from({ length: n }, (_, i) => ({ url: `https://cdn.test/${prefix}${i}.ts`, durationSeconds }));
const segmented = (id: string, kind: UpstreamStream["kind"], segments: SegmentRef[], init?: SegmentRef): UpstreamStream => ({
  id,
  kind,
  url: `https://cdn.test/${id}.m3u8`,
  transport: { type: "segments", protocol: "hls", init, segments },
  container: "ts",
  vcodec: kind === "audio" ? undefined : "h264",
  acodec: kind === "video" ? undefined : "aac",
  height: kind === "audio" ? undefined : 1080,
});

function recorder() {
  const started: { urls: string[]; owner?: string; inFlight?: number }[] = [];
  return { started, prefetch: { start: (r: readonly SegmentRef[], owner?: string, inFlight?: number) => void started.push({ urls: r.map((x) => x.url), owner, inFlight }) } };
}

describe("createDownloadPrefetch", () => {
  it("fetches ahead what each segmented input's reader will hold: in flight and as many again, init first", () => {
    const { started, prefetch } = recorder();
    const video = segmented("v", "video", refs("v", 15, 4), { url: "https://cdn.test/init.mp4" });
    const audio = segmented("a", "audio", refs("a", 15, 4));
    const plan: MediaPlan = { op: "remux", inputs: [video, audio], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null };
    createDownloadPrefetch(prefetch, 6).forPlan(plan, "dl_1");
    expect(started).toHaveLength(2);
    expect(started[0]!.urls).toEqual(["https://cdn.test/init.mp4", ...refs("v", 11, 4).map((r) => r.url)]);
    expect(started[0]).toMatchObject({ owner: "dl_1", inFlight: 6 });
    expect(started[1]!.urls).toHaveLength(12);
  });

  it("short segments keep more in flight, as the reader does", () => {
    const { started, prefetch } = recorder();
    const input = segmented("v", "progressive", refs("s", 120, 1));
    createDownloadPrefetch(prefetch, 6).forPlan({ op: "passthrough", input, mimeType: "video/mp2t", extension: "ts", bytes: null }, "dl_2");
    expect(started[0]!.inFlight).toBe(8);
    expect(started[0]!.urls).toHaveLength(16);
  });

  it("a direct input has nothing to prefetch", () => {
    const { started, prefetch } = recorder();
    const input: UpstreamStream = { id: "18", kind: "progressive", url: "https://cdn.test/v.mp4", transport: { type: "direct" }, container: "mp4", vcodec: "h264", acodec: "aac", height: 360 };
    createDownloadPrefetch(prefetch, 6).forPlan({ op: "passthrough", input, mimeType: "video/mp4", extension: "mp4", bytes: null }, "dl_3");
    expect(started).toEqual([]);
  });

  it("streams known early are planned for the format: a format they cannot give starts nothing", () => {
    const { started, prefetch } = recorder();
    const dp = createDownloadPrefetch(prefetch, 6);
    const streams = [segmented("v", "video", refs("v", 15, 4)), segmented("a", "audio", refs("a", 15, 4))];
    dp.forStreams("https://example.test/master.m3u8", "mp4-1080", "dl_4", streams);
    expect(started.map((s) => s.owner)).toEqual(["dl_4", "dl_4"]);
    dp.forStreams("https://example.test/master.m3u8", "transcript", "dl_5", streams);
    expect(started).toHaveLength(2);
  });
});
