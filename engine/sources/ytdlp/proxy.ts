/**
 * The forwarding proxy yt-dlp talks through (issue 12, docs/architecture.md "yt-dlp"). yt-dlp is
 * started with `--proxy http://<run token>@127.0.0.1:<port>`, so every request it makes for
 * metadata reaches us first: plain HTTP requests in absolute form, HTTPS as CONNECT tunnels.
 * Each one gets the rules of our own outbound fetch: OUTBOUND_HOST_MAP (a mapped host goes to its
 * operator-configured origin, trusted), otherwise the SSRF guard after DNS, connecting to exactly
 * the address that was checked. Redirects are new requests, so every hop is checked too.
 * Only runs this process started (a valid token) may use it; it listens on loopback only.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { isIP, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { Logger } from "pino";
import { isBlockedAddress, unbracket } from "../../outbound/address-guard.ts";
import { awaitConnect } from "../../outbound/await-connect.ts";
import type { EgressDialer } from "../../outbound/egress.ts";
import { applyHostMap, parseHostMap, type HostMap } from "../../outbound/host-map.ts";

export type ResolveAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export interface ProxyOptions {
  hostMap?: HostMap | string;
  allowPrivate: boolean;
  logger: Logger;
  /** DNS, injectable for tests */
  resolve?: ResolveAll;
  /** idle limit of one proxied connection */
  idleTimeoutMs?: number;
}

/** What one yt-dlp run did through the proxy: the refusals explain its failure. */
export interface ProxyRun {
  /** the proxy URL to pass as `--proxy` */
  url: string;
  /** how this run's requests leave the server (the resolve's egress); null: this host's own address */
  dialer: EgressDialer | null;
  /** destinations refused by the SSRF guard, e.g. "127.0.0.1 (10.0.0.5)" */
  refused: string[];
  /** forget the run; its token stops working */
  end(): void;
}

export interface ForwardingProxy {
  port: number;
  /** a run whose requests leave by `dialer` (the egress of the resolve it serves; absent: this host's own address) */
  startRun(dialer?: EgressDialer | null): ProxyRun;
  close(): Promise<void>;
}

/** A destination decided: where to connect, or why not. */
type Target = { ok: true; host: string; port: number; mapped: boolean } | { ok: false; status: number; reason: string };

/** The first byte of a TLS record that carries a handshake (a ClientHello opens every https tunnel). */
const TLS_HANDSHAKE_RECORD = 0x16;

const HOP_BY_HOP = ["connection", "keep-alive", "proxy-authorization", "proxy-connection", "proxy-authenticate", "te", "trailer", "upgrade"];

const defaultResolve: ResolveAll = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export async function startForwardingProxy(opts: ProxyOptions): Promise<ForwardingProxy> {
  const hostMap = typeof opts.hostMap === "string" || opts.hostMap === undefined ? parseHostMap(opts.hostMap) : opts.hostMap;
  const resolve = opts.resolve ?? defaultResolve;
  const idleTimeoutMs = opts.idleTimeoutMs ?? 30_000;
  const runs = new Map<string, ProxyRun>();
  const sockets = new Set<Socket | Duplex>();
  const log = opts.logger;

  /** The run a request belongs to, from its Proxy-Authorization (Basic, the token as user name). */
  function runOf(req: IncomingMessage): ProxyRun | null {
    const header = req.headers["proxy-authorization"];
    const m = typeof header === "string" ? /^basic\s+(\S+)$/i.exec(header) : null;
    if (!m) return null;
    const user = Buffer.from(m[1]!, "base64").toString("utf8").split(":")[0] ?? "";
    for (const [token, run] of runs) {
      const a = Buffer.from(token);
      const b = Buffer.from(user);
      if (a.length === b.length && timingSafeEqual(a, b)) return run;
    }
    return null;
  }

  /** Host map first (trusted), else DNS and the address guard; the answer is the address to dial. */
  async function decide(hostname: string, port: number, defaultPort: number, protocol: "http:" | "https:"): Promise<Target> {
    const host = unbracket(hostname).toLowerCase().replace(/\.$/, "");
    const mapped = applyHostMap(hostMap, new URL(`${protocol}//${isIP(host) === 6 ? `[${host}]` : host}:${port}/`));
    if (mapped) {
      return { ok: true, host: unbracket(mapped.hostname), port: Number(mapped.port) || (mapped.protocol === "https:" ? 443 : 80), mapped: true };
    }
    if (opts.allowPrivate) return { ok: true, host, port: port || defaultPort, mapped: false };
    if (isIP(host)) {
      return isBlockedAddress(host) ? { ok: false, status: 403, reason: `${host} is not a public address` } : { ok: true, host, port, mapped: false };
    }
    let addresses: Array<{ address: string; family: number }>;
    try {
      addresses = (await resolve(host)).filter((a) => a.family === 4 || a.family === 6);
    } catch {
      return { ok: false, status: 502, reason: `no address for ${host}` };
    }
    if (addresses.length === 0) return { ok: false, status: 502, reason: `no address for ${host}` };
    const bad = addresses.find((a) => isBlockedAddress(a.address));
    if (bad) return { ok: false, status: 403, reason: `${host} resolves to ${bad.address}` };
    // dial the checked address itself, so DNS cannot answer differently between check and connect
    return { ok: true, host: addresses[0]!.address, port, mapped: false };
  }

  function refuse(run: ProxyRun | null, res: ServerResponse, target: Extract<Target, { ok: false }>): void {
    if (target.status === 403) run?.refused.push(target.reason);
    log.info({ reason: target.reason }, "yt-dlp proxy refused a destination");
    res.writeHead(target.status, { "content-type": "text/plain; charset=utf-8", connection: "close" });
    res.end(`Refused by the server's outbound rules: ${target.reason}\n`);
  }

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const run = runOf(req);
    if (!run) {
      res.writeHead(407, { "proxy-authenticate": 'Basic realm="vidfetch"', connection: "close" }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(req.url ?? "");
    } catch {
      res.writeHead(400, { connection: "close" }).end();
      return;
    }
    // HTTPS goes through CONNECT; an absolute-form request must be plain HTTP
    if (url.protocol !== "http:") {
      res.writeHead(400, { connection: "close" }).end();
      return;
    }
    const target = await decide(url.hostname, Number(url.port) || 80, 80, "http:");
    if (!target.ok) return refuse(run, res, target);
    const headers: http.OutgoingHttpHeaders = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    if (target.mapped) headers["x-forwarded-host"] = url.host;
    const dialer = run.dialer;
    const upstream = http.request({
      host: target.host,
      port: target.port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      timeout: idleTimeoutMs,
      // the run's egress: the destination was decided above, the dialer only carries the bytes
      ...(dialer
        ? {
            createConnection: (_: unknown, done: (err: Error | null, socket: Duplex) => void) => {
              dialer.dial({ host: target.host, port: target.port, guarded: false }, idleTimeoutMs).then(
                (socket) => done(null, socket),
                (err: unknown) => done(err as Error, undefined as unknown as Duplex),
              );
              return undefined;
            },
          }
        : {}),
    });
    upstream.on("response", (up) => {
      const out: http.OutgoingHttpHeaders = { ...up.headers };
      for (const h of HOP_BY_HOP) delete out[h];
      res.writeHead(up.statusCode ?? 502, out);
      up.pipe(res);
      up.on("error", () => res.destroy());
    });
    upstream.on("timeout", () => upstream.destroy(new Error("upstream idle")));
    upstream.on("error", (err) => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { "content-type": "text/plain; charset=utf-8", connection: "close" }).end(`Upstream failed: ${err.message}\n`);
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  }

  async function onConnect(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const reply = (status: number, text: string) => {
      client.end(`HTTP/1.1 ${status} ${text}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    const run = runOf(req);
    if (!run) return reply(407, "Proxy Authentication Required");
    const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? "");
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535) return reply(400, "Bad Request");
    const target = await decide(m[1]!, port, 443, "https:");
    if (!target.ok) {
      if (target.status === 403) run.refused.push(target.reason);
      log.info({ reason: target.reason }, "yt-dlp proxy refused a tunnel");
      return reply(target.status, target.status === 403 ? "Forbidden" : "Bad Gateway");
    }
    let upstream: Socket;
    try {
      upstream = await (run.dialer
        ? run.dialer.dial({ host: target.host, port: target.port, guarded: false }, idleTimeoutMs)
        : awaitConnect(net.connect({ host: target.host, port: target.port }), "connect", target.host, idleTimeoutMs, null));
    } catch {
      return reply(502, "Bad Gateway");
    }
    sockets.add(upstream);
    upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
    // A tunnel carries HTTPS only: its first bytes must open a TLS handshake (yt-dlp's https),
    // never another protocol (FTP, SMTP, a database) to whatever port was named.
    const open = (first: Buffer) => {
      if (first[0] !== TLS_HANDSHAKE_RECORD) {
        log.info({ target: req.url }, "yt-dlp proxy closed a tunnel that did not start with TLS");
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(first);
      upstream.pipe(client);
      client.pipe(upstream);
    };
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) open(head);
    else
      client.once("data", (chunk: Buffer) => {
        client.pause();
        open(chunk);
      });
    upstream.on("error", () => client.destroy());
    upstream.on("close", () => {
      sockets.delete(upstream);
      client.destroy();
    });
    client.on("close", () => upstream.destroy());
  }

  const server = http.createServer((req, res) => {
    onRequest(req, res).catch((err: unknown) => {
      log.warn({ err }, "yt-dlp proxy request failed");
      if (!res.headersSent) res.writeHead(502, { connection: "close" }).end();
      else res.destroy();
    });
  });
  server.on("connect", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onConnect(req, socket, head).catch((err: unknown) => {
      log.warn({ err }, "yt-dlp proxy tunnel failed");
      socket.destroy();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  // the proxy never keeps the process alive on its own
  server.unref();
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    startRun(dialer = null) {
      const token = randomBytes(18).toString("base64url");
      const run: ProxyRun = {
        url: `http://${token}:x@127.0.0.1:${port}`,
        dialer,
        refused: [],
        end: () => void runs.delete(token),
      };
      runs.set(token, run);
      return run;
    },
    close() {
      runs.clear();
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
