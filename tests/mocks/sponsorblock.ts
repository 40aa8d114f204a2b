/**
 * A local stand-in for the SponsorBlock API (issue 33 §4): `GET /api/skipSegments/<sha256 prefix>`
 * answers, like the real server, every video whose id's SHA-256 starts with the prefix that has
 * segments in the asked categories and action types, or 404 when none has. Tests set segments
 * per video, make it slow or failing, and read what was asked.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeSegment {
  category: string;
  segment: [number, number];
  actionType?: string;
}

export interface FakeSponsorBlock {
  origin: string;
  /** host:port, for OUTBOUND_HOST_MAP entries */
  hostPort: string;
  videos: Map<string, FakeSegment[]>;
  /** every request's path and query */
  requests: string[];
  /** answer after this long (ms) */
  delayMs: number;
  /** answer every request with this status instead */
  failWith: number | null;
  close(): Promise<void>;
}

export async function startFakeSponsorBlock(): Promise<FakeSponsorBlock> {
  const fake: Omit<FakeSponsorBlock, "origin" | "hostPort" | "close"> = { videos: new Map(), requests: [], delayMs: 0, failWith: null };
  const server = http.createServer((req, res) => {
    fake.requests.push(req.url ?? "");
    const answer = () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const m = /^\/api\/skipSegments\/([0-9a-f]{4,32})$/.exec(url.pathname);
      if (fake.failWith !== null) return void res.writeHead(fake.failWith).end("error");
      if (!m) return void res.writeHead(400).end("bad request");
      const categories = JSON.parse(url.searchParams.get("categories") ?? '["sponsor"]') as string[];
      const actions = JSON.parse(url.searchParams.get("actionTypes") ?? '["skip"]') as string[];
      const matching = [...fake.videos]
        .filter(([id]) => createHash("sha256").update(id).digest("hex").startsWith(m[1]!))
        .map(([videoID, segs]) => ({
          videoID,
          segments: segs
            .filter((s) => categories.includes(s.category) && actions.includes(s.actionType ?? "skip"))
            .map((s, i) => ({ ...s, actionType: s.actionType ?? "skip", UUID: `${videoID}-${i}`, locked: 0, votes: 3, videoDuration: 0 })),
        }))
        .filter((v) => v.segments.length > 0);
      if (matching.length === 0) return void res.writeHead(404).end("Not Found");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(matching));
    };
    if (fake.delayMs > 0) setTimeout(answer, fake.delayMs);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake, {
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  }) as FakeSponsorBlock;
}
