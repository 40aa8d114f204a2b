/**
 * A video rendition and a separate audio rendition, segmented, remuxed to MP4 (issue 13): both
 * renditions are fetched at the same time, each with several segments in flight, over kept-alive
 * connections. Watched from a local origin that answers every request after a delay.
 */
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locateMediaTools, type MediaTools } from "../media/ffmpeg.ts";
import type { SegmentRef, UpstreamStream } from "../types.ts";
import { createOutbound, type Outbound } from "../outbound/outbound-fetch.ts";
import { runPlan } from "./run-plan.ts";

const run = promisify(execFile);
const LATENCY_MS = 80;
const CONCURRENCY = 4;

interface Seen {
  file: string;
  arrived: number;
  answered: number;
  port: number;
}

let dir: string;
let server: http.Server;
let origin: string;
let tools: MediaTools;
let outbound: Outbound;
const seen: Seen[] = [];

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "vidfetch-segmented-remux-"));
  const hls = (input: string[], name: string) =>
    run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", ...input, "-f", "hls", "-hls_time", "1", "-hls_playlist_type", "vod", "-hls_segment_filename", `${name}-%02d.ts`, `${name}.m3u8`], { cwd: dir });
  await Promise.all([
    hls(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=24:duration=8", "-c:v", "libx264", "-preset", "ultrafast", "-g", "24", "-keyint_min", "24", "-sc_threshold", "0"], "v"),
    hls(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=8", "-c:a", "aac"], "a"),
  ]);
  server = http.createServer((req, res) => {
    const file = path.basename(new URL(req.url ?? "/", "http://x").pathname);
    const entry: Seen = { file, arrived: performance.now(), answered: 0, port: req.socket.remotePort ?? 0 };
    setTimeout(() => {
      fs.readFile(path.join(dir, file)).then(
        (data) => {
          entry.answered = performance.now();
          seen.push(entry);
          res.writeHead(200, { "content-type": "video/mp2t", "content-length": String(data.length) }).end(data);
        },
        () => res.writeHead(404).end(),
      );
    }, LATENCY_MS);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tools = await locateMediaTools({});
  outbound = createOutbound({ allowPrivate: true, timeoutMs: 10_000, logger: pino({ level: "silent" }) });
}, 60_000);

afterAll(async () => {
  outbound?.close();
  server?.closeAllConnections();
  server?.close();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

async function segmentsOf(name: string): Promise<SegmentRef[]> {
  const text = await fs.readFile(path.join(dir, `${name}.m3u8`), "utf8");
  return text
    .split("\n")
    .filter((l) => l.endsWith(".ts"))
    .map((l) => ({ url: `${origin}/${l}`, durationSeconds: 1 }));
}

/** the most requests of these files the origin held at one moment */
function peakInFlight(entries: Seen[]): number {
  let peak = 0;
  for (const e of entries) peak = Math.max(peak, entries.filter((o) => o.arrived <= e.arrived && o.answered > e.arrived).length);
  return peak;
}

describe("segmented video + separate audio remuxed to MP4", () => {
  it("fetches both renditions at once, several segments each, over kept-alive connections", async () => {
    const video: UpstreamStream = { id: "v", kind: "video", url: `${origin}/v.m3u8`, container: "ts", vcodec: "h264", transport: { type: "segments", protocol: "hls", segments: await segmentsOf("v") } };
    const audio: UpstreamStream = { id: "a", kind: "audio", url: `${origin}/a.m3u8`, container: "ts", acodec: "aac", transport: { type: "segments", protocol: "hls", segments: await segmentsOf("a") } };
    const segments = (video.transport.type === "segments" ? video.transport.segments.length : 0) + (audio.transport.type === "segments" ? audio.transport.segments.length : 0);
    expect(segments).toBeGreaterThanOrEqual(14);
    seen.length = 0;
    const controller = new AbortController();
    const out = await runPlan(
      { op: "remux", inputs: [video, audio], container: "mp4", mimeType: "video/mp4", extension: "mp4", bytes: null },
      { outbound, media: tools, limits: { chunkBytes: 8 * 1024 * 1024, segmentConcurrency: CONCURRENCY }, logger: pino({ level: "silent" }), signal: controller.signal },
    );
    let bytes = 0;
    for await (const chunk of out.body) bytes += (chunk as Buffer).length;
    out.teardown();
    expect(bytes).toBeGreaterThan(10_000);
    expect(seen).toHaveLength(segments);

    const v = seen.filter((s) => s.file.startsWith("v-"));
    const a = seen.filter((s) => s.file.startsWith("a-"));
    // the audio did not wait for the video: its first request came before the video's first answer
    expect(Math.min(...a.map((s) => s.arrived))).toBeLessThan(Math.min(...v.map((s) => s.answered)));
    // no serial step per segment: each rendition kept several requests in flight
    expect(peakInFlight(v)).toBeGreaterThanOrEqual(CONCURRENCY - 1);
    expect(peakInFlight(a)).toBeGreaterThanOrEqual(CONCURRENCY - 1);
    // keep-alive: far fewer connections than requests
    expect(new Set(seen.map((s) => s.port)).size).toBeLessThanOrEqual(2 * CONCURRENCY + 2);
    expect(new Set(seen.map((s) => s.port)).size).toBeLessThan(segments);
  });
});
