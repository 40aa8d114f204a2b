/**
 * A raw TCP connection to a destination through an operator's proxy: HTTP CONNECT for `http://`
 * and `https://` proxies (RFC 9110 §9.3.6; the proxy connection itself in TLS for `https://`),
 * SOCKS5 for `socks5://` (RFC 1928, with RFC 1929 user/password when the URL has credentials).
 * What the caller sends on the socket (TLS to the destination, an HTTP request) is its own
 * business: the proxy only carries bytes. Credentials go to the proxy alone and are never logged
 * or put into an error's text.
 */
import net, { isIP, type Socket } from "node:net";
import tls from "node:tls";
import { EngineError } from "../errors.ts";
import { abortError } from "./outbound-errors.ts";

export interface ProxySpec {
  protocol: "http:" | "https:" | "socks5:";
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** certificates trusted for an `https:` proxy instead of the system's (tests; not a setting) */
  ca?: string | Buffer;
}

/** where the tunnel leads: an address the guard checked, or a trusted name the proxy resolves */
export interface TunnelDestination {
  host: string;
  port: number;
}

/** The proxy as logs may name it: scheme, host and port, never its credentials. */
export function proxyLabel(proxy: ProxySpec): string {
  return `${proxy.protocol}//${isIP(proxy.host) === 6 ? `[${proxy.host}]` : proxy.host}:${proxy.port}`;
}

/** what a proxy's answer may be at most before the tunnel opens (a CONNECT response head) */
const MAX_PROXY_HEAD = 16 * 1024;

/**
 * A tunnel that did not open: retryable like a reset connection when another attempt may work;
 * `proxyFault` when the proxy itself failed (unreachable, refused our credentials, spoke another
 * protocol) rather than the destination behind it (a CONNECT 502, SOCKS "host unreachable").
 */
export type TunnelError = Error & { code: string; proxyFault: boolean };

function proxyError(proxy: ProxySpec, what: string, retryable: boolean, proxyFault: boolean): TunnelError {
  return Object.assign(new Error(`proxy ${proxyLabel(proxy)}: ${what}`), { code: retryable ? "ECONNRESET" : "EPROXY", proxyFault });
}

/** Whether a failed tunnel speaks against the proxy (its egress should rest) rather than the destination. */
export function isProxyFault(err: unknown): boolean {
  return (err as Partial<TunnelError> | null)?.proxyFault === true;
}

/**
 * Opens a tunnel to `to` through `proxy`; resolves once bytes written to the socket reach the
 * destination. The timeout covers the connection to the proxy and its handshake together.
 */
export function connectThroughProxy(proxy: ProxySpec, to: TunnelDestination, timeoutMs: number, signal?: AbortSignal | null): Promise<Socket> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const socket: Socket =
      proxy.protocol === "https:"
        ? tls.connect({ host: proxy.host, port: proxy.port, servername: isIP(proxy.host) ? undefined : proxy.host, ALPNProtocols: ["http/1.1"], ...(proxy.ca ? { ca: proxy.ca } : {}) })
        : net.connect({ host: proxy.host, port: proxy.port });
    let settled = false;
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      socket.off("error", onError);
      socket.off("close", onClose);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        resolve(socket);
      }
    };
    const timer = setTimeout(() => finish(new EngineError("upstream.timeout", { detail: `no tunnel through ${proxyLabel(proxy)} in ${timeoutMs} ms` })), timeoutMs);
    const onAbort = () => finish(abortError(signal));
    // the proxy's own socket failing (refused, reset, TLS to it) is the proxy's fault
    const onError = (err: Error) => finish(proxyError(proxy, (err as NodeJS.ErrnoException).code ?? err.message, true, true));
    const onClose = () => finish(proxyError(proxy, "closed the connection during the handshake", true, true));
    signal?.addEventListener("abort", onAbort, { once: true });
    socket.on("error", onError);
    socket.on("close", onClose);
    socket.once(proxy.protocol === "https:" ? "secureConnect" : "connect", () => {
      const handshake = proxy.protocol === "socks5:" ? socksHandshake(socket, proxy, to) : connectHandshake(socket, proxy, to);
      handshake.then(
        () => finish(null),
        (err: unknown) => finish(err as Error),
      );
    });
  });
}

/** Reads from `socket` until `done` says how many bytes it used (or throws); nothing may follow them yet. */
function readUntil(socket: Socket, proxy: ProxySpec, done: (buf: Buffer) => number | null): Promise<void> {
  return new Promise((resolve, reject) => {
    let buf: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      let used: number | null;
      try {
        used = done(buf);
      } catch (err) {
        socket.off("data", onData);
        reject(err as Error);
        return;
      }
      if (used === null) {
        if (buf.length > MAX_PROXY_HEAD) {
          socket.off("data", onData);
          reject(proxyError(proxy, "answered too much before the tunnel opened", false, true));
        }
        return;
      }
      socket.off("data", onData);
      // HTTP and TLS speak first from our side: a proxy that sends more before we have spoken
      // is not carrying our destination's bytes
      if (used < buf.length) {
        reject(proxyError(proxy, "sent bytes before the tunnel was used", false, true));
        return;
      }
      resolve();
    };
    socket.on("data", onData);
  });
}

function hostPort(to: TunnelDestination): string {
  return `${isIP(to.host) === 6 ? `[${to.host}]` : to.host}:${to.port}`;
}

/** HTTP CONNECT: `CONNECT host:port`, a 2xx opens the tunnel; anything else is the proxy's refusal. */
async function connectHandshake(socket: Socket, proxy: ProxySpec, to: TunnelDestination): Promise<void> {
  const target = hostPort(to);
  const lines = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
  if (proxy.username !== undefined) {
    lines.push(`Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ""}`).toString("base64")}`);
  }
  socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  let status = 0;
  await readUntil(socket, proxy, (buf) => {
    const end = buf.indexOf("\r\n\r\n");
    if (end === -1) return null;
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(buf.toString("latin1", 0, Math.min(end, 64)));
    if (!m) throw proxyError(proxy, "did not answer CONNECT in HTTP", false, true);
    status = Number(m[1]);
    return end + 4;
  });
  if (status < 200 || status > 299) {
    // 407: our credentials were refused; 403: the proxy will not go there; 5xx: it could not reach the destination
    throw proxyError(proxy, `answered CONNECT with ${status}`, status >= 500, status < 500);
  }
}

const SOCKS_REPLIES: Record<number, string> = {
  1: "general failure",
  2: "connection not allowed by ruleset",
  3: "network unreachable",
  4: "host unreachable",
  5: "connection refused",
  6: "TTL expired",
  7: "command not supported",
  8: "address type not supported",
};

/** SOCKS5 (RFC 1928): greeting, RFC 1929 user/password when we have one, then CONNECT. */
async function socksHandshake(socket: Socket, proxy: ProxySpec, to: TunnelDestination): Promise<void> {
  const withAuth = proxy.username !== undefined;
  socket.write(Buffer.from(withAuth ? [5, 2, 0, 2] : [5, 1, 0]));
  let method = -1;
  await readUntil(socket, proxy, (buf) => {
    if (buf.length < 2) return null;
    if (buf[0] !== 5) throw proxyError(proxy, "is not a SOCKS5 proxy", false, true);
    method = buf[1]!;
    return 2;
  });
  if (method === 2 && withAuth) {
    const user = Buffer.from(proxy.username ?? "", "utf8");
    const pass = Buffer.from(proxy.password ?? "", "utf8");
    if (user.length > 255 || pass.length > 255) throw proxyError(proxy, "user name or password longer than SOCKS5 allows", false, true);
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([pass.length]), pass]));
    let ok = false;
    await readUntil(socket, proxy, (buf) => {
      if (buf.length < 2) return null;
      ok = buf[1] === 0;
      return 2;
    });
    if (!ok) throw proxyError(proxy, "refused our user name and password", false, true);
  } else if (method !== 0) {
    throw proxyError(proxy, method === 0xff ? "accepts none of our authentication methods" : `chose authentication method ${method}`, false, true);
  }
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), socksAddress(to.host), Buffer.from([to.port >> 8, to.port & 0xff])]));
  let reply = -1;
  await readUntil(socket, proxy, (buf) => {
    if (buf.length < 5) return null;
    if (buf[0] !== 5) throw proxyError(proxy, "answered CONNECT outside SOCKS5", false, true);
    reply = buf[1]!;
    const atyp = buf[3];
    const addrLen = atyp === 1 ? 4 : atyp === 4 ? 16 : atyp === 3 ? 1 + buf[4]! : -1;
    if (addrLen < 0) throw proxyError(proxy, `answered with address type ${atyp}`, false, true);
    const total = 4 + addrLen + 2;
    return buf.length >= total ? total : null;
  });
  // 2 (not allowed by its rules) and 7, 8 (what we asked for is not supported) are the proxy's; the rest are the destination's
  const proxyFault = reply === 2 || reply === 7 || reply === 8;
  if (reply !== 0) {
    throw proxyError(proxy, `refused the connection (${SOCKS_REPLIES[reply] ?? `reply ${reply}`})`, reply === 1 || reply === 3 || reply === 4, proxyFault);
  }
}

/** DST.ADDR with its ATYP: an IPv4 or IPv6 address as bytes, a name (resolved by the proxy) with its length. */
function socksAddress(host: string): Buffer {
  const family = isIP(host);
  if (family === 4) return Buffer.from([1, ...host.split(".").map(Number)]);
  if (family === 6) return Buffer.concat([Buffer.from([4]), ipv6Bytes(host)]);
  const name = Buffer.from(host, "utf8");
  if (name.length > 255) throw new EngineError("link.unsupported", { detail: "host name longer than SOCKS5 allows" });
  return Buffer.concat([Buffer.from([3, name.length]), name]);
}

/** The 16 bytes of an IPv6 address (no zone id, no embedded IPv4). */
export function ipv6Bytes(address: string): Buffer {
  const n = ipv6ToBigInt(address);
  const out = Buffer.alloc(16);
  for (let i = 15, v = n; i >= 0; i--, v >>= 8n) out[i] = Number(v & 0xffn);
  return out;
}

/** An IPv6 address as a 128-bit number; throws on anything else (including the dotted IPv4 tail forms). */
export function ipv6ToBigInt(address: string): bigint {
  const text = address.split("%")[0]!.toLowerCase();
  if (isIP(text) !== 6 || text.includes(".")) throw new Error(`${address} is not an IPv6 address in hexadecimal groups`);
  const [head, tail] = text.includes("::") ? (text.split("::") as [string, string]) : [text, undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill("0"), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** A 128-bit number as an IPv6 address, in the compressed form URLs use. */
export function bigIntToIpv6(n: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}
