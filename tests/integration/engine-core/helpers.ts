import { createHash } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import pino from "pino";

export const silentLogger = pino({ level: "silent" });

export interface TestServer {
  origin: string;
  port: number;
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }>;
  /** TCP connections accepted (an escape counts even without a full request) */
  connections: () => number;
  close(): Promise<void>;
}

/** A local HTTP server on 127.0.0.1 that records every request it sees. */
export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  let connections = 0;
  server.on("connection", (s) => {
    connections++;
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Read a whole stream into one buffer (test inputs are small). */
export async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

export const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
