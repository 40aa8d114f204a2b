/**
 * A throttling front for a local origin, shaped like the CDNs issue 13 measures against: every
 * response body (of the paths `throttle` picks) is paced to `bytesPerSecond` per connection, every
 * request waits `delayMs` first, and a googlevideo-style `range=a-b` query parameter is answered
 * like a `Range: bytes=a-b` header. It counts the requests in flight, so tests can check how many
 * connections a download really opened at once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ThrottlingProxyOptions {
  /** origin to forward to, e.g. http://127.0.0.1:4000 */
  target: string;
  /** per-connection body rate; 0 = unthrottled */
  bytesPerSecond: number;
  /** wait before forwarding each request (latency), ms */
  delayMs?: number;
  /** which paths are throttled (default: all) */
  throttle?: (path: string) => boolean;
}

export interface ThrottlingProxy {
  origin: string;
  /** requests in flight right now, and the most seen at once */
  inFlight(): number;
  peakInFlight(): number;
  resetPeak(): void;
  /** Range (or range=) asked for by every request, in order */
  ranges: Array<string | null>;
  close(): Promise<void>;
}

/** Writes `chunk` in slices (about 20 a second), never ahead of `rate` bytes per second since `startedAt`. */
async function paced(res: http.ServerResponse, chunk: Buffer, state: { sent: number; startedAt: number }, rate: number): Promise<void> {
  const size = Math.max(1024, Math.min(16 * 1024, Math.floor(rate / 20)));
  for (let off = 0; off < chunk.length && !res.destroyed; off += size) {
    const slice = chunk.subarray(off, off + size);
    const due = state.startedAt + ((state.sent + slice.length) * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    state.sent += slice.length;
    if (!res.write(slice)) await new Promise((r) => res.once("drain", r));
  }
}

export async function startThrottlingProxy(opts: ThrottlingProxyOptions): Promise<ThrottlingProxy> {
  const target = new URL(opts.target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });
  let inFlight = 0;
  let peak = 0;
  const ranges: Array<string | null> = [];
  const server = http.createServer((req, res) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.once("close", () => inFlight--);
    const url = new URL(req.url ?? "/", "http://proxy");
    const headers = { ...req.headers, host: target.host };
    const param = url.searchParams.get("range");
    if (param && /^\d+-\d*$/.test(param)) headers.range = `bytes=${param}`;
    ranges.push(typeof headers.range === "string" ? headers.range : null);
    const forward = () => {
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: `${url.pathname}${url.search}`, method: req.method, headers, agent },
        (up) => {
          const throttled = opts.bytesPerSecond > 0 && (opts.throttle?.(url.pathname) ?? true);
          const out = { ...up.headers };
          // googlevideo answers a range= request with 200 and just that part
          if (param && up.statusCode === 206) delete out["content-range"];
          res.writeHead(param && up.statusCode === 206 ? 200 : (up.statusCode ?? 502), out);
          if (!throttled) {
            up.pipe(res);
            return;
          }
          // bytes that arrived before an upstream cut are still sent (paced), then the cut is passed on
          const state = { sent: 0, startedAt: performance.now() };
          const queue: Buffer[] = [];
          let ended = false;
          let failed = false;
          let wake: (() => void) | null = null;
          const poke = () => {
            wake?.();
            wake = null;
          };
          up.on("data", (c: Buffer) => {
            queue.push(c);
            if (queue.length > 8) up.pause();
            poke();
          });
          up.once("end", () => {
            ended = true;
            poke();
          });
          up.once("error", () => {
            failed = true;
            poke();
          });
          up.once("close", () => {
            if (!up.complete) failed = true;
            poke();
          });
          void (async () => {
            while (!res.destroyed) {
              const chunk = queue.shift();
              if (chunk) {
                if (queue.length <= 8) up.resume();
                await paced(res, chunk, state, opts.bytesPerSecond);
                continue;
              }
              if (ended) return void res.end();
              // a cut, after what was written has left (destroy alone would drop it)
              if (failed) return void res.write(Buffer.alloc(0), () => setTimeout(() => res.destroy(), 5));
              await new Promise<void>((r) => (wake = r));
            }
          })();
          res.once("close", () => up.destroy());
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (opts.delayMs) setTimeout(forward, opts.delayMs);
    else forward();
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    inFlight: () => inFlight,
    peakInFlight: () => peak,
    resetPeak: () => {
      peak = inFlight;
    },
    ranges,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
