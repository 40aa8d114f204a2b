import { describe, expect, it } from "vitest";
import type { ResolvedMedia, UpstreamStream } from "../../types.ts";
import { frameArgs } from "../ffmpeg.ts";
import { createFrameSlots, FRAME_WIDTH, frameStream, frameTime } from "./frame.ts";

function stream(partial: Partial<UpstreamStream> & Pick<UpstreamStream, "id" | "kind">): UpstreamStream {
  return { url: `https://media.example/${partial.id}`, transport: { type: "direct" }, container: "mp4", ...partial };
}

function media(streams: UpstreamStream[], durationSeconds = 600): ResolvedMedia {
  return { platform: "youtube", sourceUrl: "https://youtu.be/x", details: { id: "x", durationSeconds }, streams, thumbnails: [], captions: [] } as unknown as ResolvedMedia;
}

describe("the rendition a preview frame is read from", () => {
  const ladder = [
    stream({ id: "137", kind: "video", vcodec: "h264", width: 1920, height: 1080 }),
    stream({ id: "134", kind: "video", vcodec: "h264", width: 640, height: 360 }),
    stream({ id: "160", kind: "video", vcodec: "h264", width: 256, height: 144 }),
    stream({ id: "18", kind: "progressive", vcodec: "h264", acodec: "aac", width: 640, height: 360 }),
    stream({ id: "396", kind: "video", container: "mp4", vcodec: "av1", width: 640, height: 360 }),
    stream({ id: "140", kind: "audio", container: "m4a", acodec: "aac" }),
  ];

  it("is the smallest that fills 320 px, in the codec cheapest to decode, video alone before a muxed stream", () => {
    expect(frameStream(media(ladder)).id).toBe("134");
    expect(frameStream(media(ladder.filter((s) => s.id !== "134"))).id).toBe("18");
    expect(frameStream(media(ladder.filter((s) => s.id !== "134" && s.id !== "18"))).id).toBe("396");
  });

  it("is the largest there is when none fills it, and an HLS rendition when that is all", () => {
    expect(frameStream(media([stream({ id: "a", kind: "video", width: 176, height: 144 }), stream({ id: "b", kind: "video", width: 256, height: 144 })])).id).toBe("b");
    const hls = stream({ id: "hls-360", kind: "progressive", container: "ts", height: 360, transport: { type: "segments", protocol: "hls", segments: [] } });
    expect(frameStream(media([hls, stream({ id: "audio", kind: "audio" })])).id).toBe("hls-360");
  });

  it("is none for audio alone: clip.unavailable", () => {
    expect(() => frameStream(media([stream({ id: "140", kind: "audio" })]))).toThrow(expect.objectContaining({ code: "clip.unavailable", message: "This video has no picture to preview." }));
  });
});

describe("the time of a preview frame", () => {
  it("is a clip time within the video", () => {
    expect(frameTime(media([], 3900), "1:02:03")).toBe(3723);
    expect(frameTime(media([], 3900), "90.5")).toBe(90.5);
    expect(frameTime(media([], 3900), 0)).toBe(0);
  });

  it("at or past the end is clip.out_of_range, a typo request.invalid, an unknown length clip.unavailable", () => {
    expect(() => frameTime(media([], 600), "10:00")).toThrow(expect.objectContaining({ code: "clip.out_of_range", status: 422, message: "The time must be within the video's length (10:00)." }));
    expect(() => frameTime(media([], 600), "1:75")).toThrow(expect.objectContaining({ code: "request.invalid", status: 400 }));
    expect(() => frameTime(media([], 600), -1)).toThrow(expect.objectContaining({ code: "request.invalid" }));
    expect(() => frameTime(media([], 0), 5)).toThrow(expect.objectContaining({ code: "clip.unavailable" }));
  });
});

describe("ffmpeg's command line for a frame", () => {
  it("seeks the loopback input with media demuxers only, writes one JPEG frame no wider than 320 px to stdout", () => {
    const args = frameArgs(61.5, "http://127.0.0.1:4000/token", FRAME_WIDTH).join(" ");
    expect(args).toContain("-ss 61.500 -format_whitelist mov,mp4,");
    expect(args).toContain("-i http://127.0.0.1:4000/token -map 0:v:0 -an -sn -dn -frames:v 1 -vf scale='min(320,iw)':-2 -c:v mjpeg");
    expect(args.endsWith("-f image2pipe pipe:1")).toBe(true);
  });

  it("reads a segmented input from its pipe, and from its start at 0", () => {
    const args = frameArgs(0, null, FRAME_WIDTH).join(" ");
    expect(args).not.toContain("-ss");
    expect(args).toContain("-i pipe:3 ");
  });
});

describe("frame slots", () => {
  const never = new AbortController().signal;

  it("run two at once, queue the next, and refuse past the queue with download.busy", async () => {
    const slots = createFrameSlots(2, 1);
    const a = await slots.take(never);
    const b = await slots.take(never);
    let third = false;
    const waiting = slots.take(never).then((release) => {
      third = true;
      return release;
    });
    await expect(slots.take(never)).rejects.toMatchObject({ code: "download.busy", retryAfter: 2 });
    await Promise.resolve();
    expect(third).toBe(false);
    // the slot goes to the waiter; a release twice frees it once only
    a();
    a();
    const c = await waiting;
    expect(third).toBe(true);
    const d = slots.take(never);
    await expect(slots.take(never)).rejects.toMatchObject({ code: "download.busy" });
    b();
    (await d)();
    c();
    // all free again: two at once
    (await slots.take(never))();
  });

  it("let a waiter that leaves go without taking a slot", async () => {
    const slots = createFrameSlots(1, 2);
    const held = await slots.take(never);
    const leaving = new AbortController();
    const left = slots.take(leaving.signal);
    leaving.abort();
    await expect(left).rejects.toMatchObject({ code: "download.failed" });
    const next = slots.take(never);
    held();
    (await next)();
    const again = await slots.take(never);
    again();
  });
});
