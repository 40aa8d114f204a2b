/**
 * Two operator proxies for the egress tests (issue 32 §7): an HTTP CONNECT proxy and a SOCKS5
 * proxy (RFC 1928, RFC 1929 user/password), each counting what went through it. Each may dial
 * its destinations from its own loopback address (`localAddress`, e.g. 127.0.0.2), so a server
 * behind it sees a different client address per proxy, as googlevideo sees a different egress.
 * They go wherever they are asked: keeping user links away from private addresses is the
 * engine's job, and the tests check the engine asks them for nothing it should not.
 */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import net, { isIP, type AddressInfo, type Socket } from "node:net";
import type { Duplex } from "node:stream";

export interface ProxyTunnel {
  /** the destination as the client named it (`host:port`, an IPv6 address in brackets) */
  target: string;
  /** bytes carried each way */
  up: number;
  down: number;
}

export interface FakeProxy {
  /** the URL to put into OUTBOUND_PROXIES (with the credentials, when it wants them) */
  url: string;
  /** the address destinations see this proxy's connections come from */
  localAddress: string;
  tunnels(): ProxyTunnel[];
  /** handshakes refused for missing or wrong credentials */
  authFailures(): number;
  close(): Promise<void>;
}

export interface FakeProxyOptions {
  /** credentials the proxy insists on */
  auth?: { username: string; password: string };
  /** the loopback address to dial destinations from (default 127.0.0.1) */
  localAddress?: string;
  /**
   * where a destination is really dialled (default: where it was asked for): lets a test ask for a
   * public address the guard accepts while the bytes come from a local server
   */
  route?: (host: string, port: number) => { host: string; port: number };
  /** the CONNECT proxy speaks TLS itself (an `https://` proxy) with this key and certificate */
  tls?: { key: string | Buffer; cert: string | Buffer };
}

/** Pipes the client and the destination together, counting the bytes each way. */
function splice(client: Duplex, upstream: Socket, tunnel: ProxyTunnel, sockets: Set<Duplex>): void {
  sockets.add(upstream);
  upstream.on("close", () => sockets.delete(upstream));
  client.on("data", (chunk: Buffer) => {
    tunnel.up += chunk.length;
  });
  upstream.on("data", (chunk: Buffer) => {
    tunnel.down += chunk.length;
  });
  client.pipe(upstream);
  upstream.pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.on("close", () => upstream.destroy());
  upstream.on("close", () => client.destroy());
}

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

function closer(server: net.Server, sockets: Set<Duplex>): () => Promise<void> {
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

function userinfo(auth: FakeProxyOptions["auth"]): string {
  return auth ? `${encodeURIComponent(auth.username)}:${encodeURIComponent(auth.password)}@` : "";
}

/** An HTTP proxy that only tunnels (CONNECT), as the engine uses one. */
export async function startConnectProxy(opts: FakeProxyOptions = {}): Promise<FakeProxy> {
  const localAddress = opts.localAddress ?? "127.0.0.1";
  const tunnels: ProxyTunnel[] = [];
  const sockets = new Set<Duplex>();
  let authFailures = 0;
  const refuse = (_req: IncomingMessage, res: http.ServerResponse) => res.writeHead(405, { connection: "close" }).end();
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, refuse) : http.createServer(refuse);
  server.on(opts.tls ? "secureConnection" : "connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("connect", (req: IncomingMessage, client: Duplex, head: Buffer) => {
    client.on("error", () => client.destroy());
    if (opts.auth) {
      const expected = `Basic ${Buffer.from(`${opts.auth.username}:${opts.auth.password}`).toString("base64")}`;
      if (req.headers["proxy-authorization"] !== expected) {
        authFailures++;
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\nproxy-authenticate: Basic realm="fake"\r\ncontent-length: 0\r\n\r\n');
        return;
      }
    }
    const m = /^(\[([^\]]+)\]|[^:]+):(\d+)$/.exec(req.url ?? "");
    if (!m) return void client.end("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
    const host = m[2] ?? m[1]!;
    const tunnel: ProxyTunnel = { target: req.url!, up: head.length, down: 0 };
    tunnels.push(tunnel);
    const to = opts.route?.(host, Number(m[3])) ?? { host, port: Number(m[3]) };
    const upstream = net.connect({ ...to, ...(isIP(to.host) !== 6 ? { localAddress } : {}) });
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      splice(client, upstream, tunnel, sockets);
    });
    upstream.once("error", () => client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n"));
  });
  const port = await listen(server);
  return {
    url: `${opts.tls ? "https" : "http"}://${userinfo(opts.auth)}127.0.0.1:${port}`,
    localAddress,
    tunnels: () => tunnels.map((t) => ({ ...t })),
    authFailures: () => authFailures,
    close: closer(server, sockets),
  };
}

/** A SOCKS5 proxy: CONNECT only, no authentication or user/password (RFC 1929) when `auth` is set. */
export async function startSocksProxy(opts: FakeProxyOptions = {}): Promise<FakeProxy> {
  const localAddress = opts.localAddress ?? "127.0.0.1";
  const tunnels: ProxyTunnel[] = [];
  const sockets = new Set<Duplex>();
  let authFailures = 0;

  /** reads exactly `n` bytes (the handshake is small and strictly ordered) */
  function reader(socket: Socket) {
    let buf = Buffer.alloc(0);
    let want: { n: number; resolve: (b: Buffer) => void } | null = null;
    const pump = () => {
      if (want && buf.length >= want.n) {
        const out = buf.subarray(0, want.n);
        buf = buf.subarray(want.n);
        const w = want;
        want = null;
        w.resolve(out);
      }
    };
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      pump();
    });
    return {
      read: (n: number) =>
        new Promise<Buffer>((resolve) => {
          want = { n, resolve };
          pump();
        }),
      rest: () => buf,
    };
  }

  async function handle(socket: Socket): Promise<void> {
    const r = reader(socket);
    const [version, count] = await r.read(2);
    if (version !== 5) return void socket.destroy();
    const methods = [...(await r.read(count!))];
    const method = opts.auth ? 2 : 0;
    if (!methods.includes(method)) {
      if (opts.auth) authFailures++;
      socket.end(Buffer.from([5, 0xff]));
      return;
    }
    socket.write(Buffer.from([5, method]));
    if (opts.auth) {
      const [, ulen] = await r.read(2);
      const user = (await r.read(ulen!)).toString("utf8");
      const [plen] = await r.read(1);
      const pass = (await r.read(plen!)).toString("utf8");
      if (user !== opts.auth.username || pass !== opts.auth.password) {
        authFailures++;
        socket.end(Buffer.from([1, 1]));
        return;
      }
      socket.write(Buffer.from([1, 0]));
    }
    const [, cmd, , atyp] = await r.read(4);
    let host: string;
    if (atyp === 1) host = [...(await r.read(4))].join(".");
    else if (atyp === 4) {
      const b = await r.read(16);
      host = Array.from({ length: 8 }, (_, i) => b.readUInt16BE(i * 2).toString(16)).join(":");
    } else if (atyp === 3) {
      const [len] = await r.read(1);
      host = (await r.read(len!)).toString("utf8");
    } else return void socket.destroy();
    const port = (await r.read(2)).readUInt16BE(0);
    const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
    if (cmd !== 1) return void socket.end(reply(7));
    const tunnel: ProxyTunnel = { target: `${isIP(host) === 6 ? `[${host}]` : host}:${port}`, up: 0, down: 0 };
    tunnels.push(tunnel);
    const to = opts.route?.(host, port) ?? { host, port };
    const upstream = net.connect({ ...to, ...(isIP(to.host) !== 6 ? { localAddress } : {}) });
    upstream.once("connect", () => {
      socket.removeAllListeners("data");
      socket.write(reply(0));
      const early = r.rest();
      if (early.length > 0) {
        tunnel.up += early.length;
        upstream.write(early);
      }
      splice(socket, upstream, tunnel, sockets);
    });
    upstream.once("error", () => socket.end(reply(5)));
  }

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    handle(socket).catch(() => socket.destroy());
  });
  const port = await listen(server);
  return {
    url: `socks5://${userinfo(opts.auth)}127.0.0.1:${port}`,
    localAddress,
    tunnels: () => tunnels.map((t) => ({ ...t })),
    authFailures: () => authFailures,
    close: closer(server, sockets),
  };
}
