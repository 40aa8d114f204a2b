import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { createServer, type AddressInfo } from "node:net";

/**
 * A hostile upstream on loopback for the engine's attack suites (the server under attack runs
 * with ALLOW_PRIVATE_SOURCES so it may fetch from here): routes answered by the test's own
 * handler, and a count of the requests that arrived.
 */
export interface HostileOrigin {
  origin: string;
  port: number;
  /** requests received so far, by path */
  hits(path: string): number;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export async function startHostileOrigin(route: Route): Promise<HostileOrigin> {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://origin");
    counts.set(url.pathname, (counts.get(url.pathname) ?? 0) + 1);
    Promise.resolve(route(req, res, url)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port where nothing listens (connections are refused). */
export async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** An HLS media playlist without codecs (the engine probes its first segment) of `count` segments. */
export function mediaPlaylist(segmentUrls: string[]): string {
  const lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0"];
  for (const url of segmentUrls) lines.push("#EXTINF:4.0,", url);
  lines.push("#EXT-X-ENDLIST", "");
  return lines.join("\n");
}
