import { request } from "node:http";
import { describe, expect, it } from "vitest";
import type { Engine } from "#engine/index.ts";
import { startHost } from "./host.ts";

/**
 * A browser asks for compression on every request (`Accept-Encoding: gzip, deflate, br`). The
 * progress stream must still reach it event by event: a compressor that buffers until the end
 * froze the bar at 0% for a whole download and then jumped to 100%.
 */
const BROWSER_ENCODINGS = "gzip, deflate, br, zstd";
const EVENT_GAP_MS = 150;
const EVENTS = 6;

type ProgressListener = Parameters<Engine["subscribeProgress"]>[1];

/** A download that reports progress every EVENT_GAP_MS, as a throttled stream does. */
function throttledProgress(): Partial<Engine> {
  return {
    subscribeProgress: async (_id: string, listener: ProgressListener) => {
      let sent = 0;
      const timer = setInterval(() => {
        sent++;
        const done = sent === EVENTS;
        listener({ bytes: sent * 1000, total: EVENTS * 1000, state: done ? "done" : "streaming" } as Parameters<ProgressListener>[0]);
        if (done) clearInterval(timer);
      }, EVENT_GAP_MS);
      return () => clearInterval(timer);
    },
  };
}

/** Reads the response as it arrives: when each `data:` event came, and the headers. */
function readEvents(port: number, path: string) {
  return new Promise<{ headers: Record<string, unknown>; arrivals: number[]; ended: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request({ host: "127.0.0.1", port, path, headers: { accept: "text/event-stream", "accept-encoding": BROWSER_ENCODINGS } }, (res) => {
      const arrivals: number[] = [];
      let text = "";
      res.setEncoding("latin1");
      res.on("data", (chunk: string) => {
        text += chunk;
        const events = text.split("\n\n").filter((e) => e.startsWith("data:")).length;
        while (arrivals.length < events) arrivals.push(performance.now() - started);
      });
      res.on("end", () => resolve({ headers: res.headers, arrivals, ended: performance.now() - started }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the progress stream under a browser's Accept-Encoding", () => {
  it("is not compressed, and each event arrives when it happens, not at the end", async () => {
    const { port } = await startHost({ engine: throttledProgress() });
    const { headers, arrivals, ended } = await readEvents(port, "/api/v1/downloads/dl_test/progress");
    expect(headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(headers["content-encoding"]).toBeUndefined();
    expect(arrivals).toHaveLength(EVENTS);
    // the first event is read long before the stream ends (a buffering compressor gives all at the end)
    expect(ended - arrivals[0]!).toBeGreaterThan((EVENTS - 2) * EVENT_GAP_MS);
  });

  it("still compresses ordinary API answers", async () => {
    const { port } = await startHost();
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`, { headers: { "accept-encoding": "gzip" } });
    expect(res.headers.get("content-encoding")).toBe("gzip");
  });
});
