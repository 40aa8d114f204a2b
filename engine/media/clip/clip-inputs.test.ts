import http from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { UpstreamStream } from "../../types.ts";
import { openClipInputs } from "./clip-inputs.ts";

const direct = (container: UpstreamStream["container"]): UpstreamStream => ({ id: "v", kind: "progressive", url: "https://cdn.example/v", transport: { type: "direct" }, container, contentLength: 1000 });

function status(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { range: "bytes=0-" }, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(res.statusCode ?? 0));
    }).on("error", reject);
  });
}

async function open(stream: UpstreamStream, bytes: Buffer) {
  const failures: Error[] = [];
  const controller = new AbortController();
  let piped = 0;
  const inputs = await openClipInputs([stream], {
    openPiped: async () => {
      piped++;
      return Readable.from([bytes]);
    },
    openRange: async (_s, range) => ({ body: Readable.from([bytes.subarray(range.start, (range.end ?? bytes.length - 1) + 1)]), total: bytes.length }),
    signal: controller.signal,
    onFailure: (err) => failures.push(err),
  });
  return { inputs, failures, piped: () => piped, close: () => controller.abort() };
}

describe("a clip's direct input", () => {
  it("is served on loopback when its first bytes are its container's", async () => {
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from("ftypisom"), Buffer.alloc(984)]);
    const { inputs, failures, close } = await open(direct("mp4"), mp4);
    expect(inputs.urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(await status(inputs.urls[0]!)).toBe(206);
    expect(failures).toEqual([]);
    close();
  });

  it("fails the download when the upstream now answers with something else (a playlist ffmpeg would follow)", async () => {
    const playlist = Buffer.concat([Buffer.from("#EXTM3U\n#EXTINF:2,\nhttp://10.0.0.1/secret.ts\n"), Buffer.alloc(950, 32)]);
    const { inputs, failures, close } = await open(direct("mp4"), playlist);
    expect(await status(inputs.urls[0]!)).toBe(502);
    expect(failures.map((e) => (e as { code?: string }).code)).toEqual(["upstream.fetch_failed"]);
    close();
  });

  it("of a container without a signature of ours is served as it comes (ffmpeg reads it with media demuxers only)", async () => {
    const { inputs, piped, failures, close } = await open(direct("mp3"), Buffer.alloc(1000, 0xff));
    expect(inputs.urls[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(await status(inputs.urls[0]!)).toBe(206);
    expect([piped(), failures.length]).toEqual([0, 0]);
    close();
  });
});
