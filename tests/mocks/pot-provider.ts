/**
 * A fake proof-of-origin token provider speaking bgutil-ytdlp-pot-provider's HTTP protocol (1.x):
 * `POST /get_pot` with `{"content_binding"}` → `{"poToken", "contentBinding", "expiresAt"}` (an ISO
 * date, as the real server's JSON-serialised Date), `GET /ping` → `{"server_uptime", "version"}`.
 * Each token names its video and the how-many-th it is (`mock-pot-<id>-<n>`), so a test sees a
 * refresh; every `/get_pot` is counted. It can also hang (accept and never answer) or fail (500).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakePotBehaviour = "ok" | "hang" | "error";

export interface FakePotProvider {
  /** the base URL to configure (`YOUTUBE_POT_PROVIDER_URL`) */
  url: string;
  /** the content bindings of every `/get_pot` so far, in order */
  calls(): string[];
  setBehaviour(behaviour: FakePotBehaviour): void;
  /** how long a token lives from now (the answer's `expiresAt`) */
  setTtlMs(ttlMs: number): void;
  close(): Promise<void>;
}

export const FAKE_POT_VERSION = "1.2.2";

export async function startFakePotProvider(opts: { ttlMs?: number; behaviour?: FakePotBehaviour } = {}): Promise<FakePotProvider> {
  let behaviour = opts.behaviour ?? "ok";
  let ttlMs = opts.ttlMs ?? 6 * 3600 * 1000;
  const calls: string[] = [];
  const startedAt = Date.now();

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      if (req.method === "GET" && req.url === "/ping") return send(200, { server_uptime: (Date.now() - startedAt) / 1000, version: FAKE_POT_VERSION });
      if (req.method !== "POST" || req.url !== "/get_pot") return send(404, { error: "not found" });
      let body: { content_binding?: unknown };
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8") || "{}") as { content_binding?: unknown };
      } catch {
        return send(400, { error: "body is not JSON" });
      }
      const binding = typeof body.content_binding === "string" ? body.content_binding : "";
      calls.push(binding);
      if (behaviour === "hang") return; // the connection stays open until close()
      if (behaviour === "error") return send(500, { error: "Failed to generate an integrity token" });
      const n = calls.filter((c) => c === binding).length;
      send(200, { poToken: `mock-pot-${binding}-${n}`, contentBinding: binding, expiresAt: new Date(Date.now() + ttlMs).toISOString() });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls: () => [...calls],
    setBehaviour: (b) => void (behaviour = b),
    setTtlMs: (ms) => void (ttlMs = ms),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
