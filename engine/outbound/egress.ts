/**
 * Egress: the ways out of this server a resolve and its download may take (issue 32 §3,
 * docs/decisions/057-egress-proxies-ipv6-affinity.md). `OUTBOUND_PROXIES` names proxies
 * (`proxy-1`, `proxy-2`, … in the order given) and `OUTBOUND_IPV6_CIDR` a routed prefix the host
 * owns (`ipv6`: every fresh resolve takes a new random source address in it). Without either the
 * one way out is `direct`, exactly as before.
 *
 * A resolve chooses an egress by its link (the same link keeps to the same egress, so cached
 * answers are found again; different links spread over the pool), skipping a resting one. What
 * it chose travels with its answer as an `EgressRef` (id, and the IPv6 source address), and every
 * request for that answer's media goes out the same way: googlevideo binds its URLs to the
 * address that asked (`ip=`). A sick egress (a bot wall, a download refused after a fresh
 * resolve, a proxy that fails) rests for `EGRESS_REST_MS` and the next one is used meanwhile.
 *
 * A proxy's own address is operator configuration (trusted, like OUTBOUND_HOST_MAP targets);
 * the SSRF guard still applies to the destination: a name is resolved and checked here, and the
 * proxy is asked for the checked address, never for the name.
 */
import { randomBytes } from "node:crypto";
import net, { isIP, type Socket } from "node:net";
import type { Logger } from "pino";
import { EngineError } from "../errors.ts";
import type { EgressRef, UpstreamStream } from "../types.ts";
import { isBlockedAddress, unbracket } from "./address-guard.ts";
import type { ResolveHost } from "./guarded-lookup.ts";
import { guardedResolve } from "./guarded-lookup.ts";
import { awaitConnect } from "./await-connect.ts";
import { abortError } from "./outbound-errors.ts";
import { bigIntToIpv6, connectThroughProxy, ipv6ToBigInt, isProxyFault, proxyLabel, type ProxySpec } from "./proxy-tunnel.ts";

export type { EgressRef, ProxySpec };

/** How long a sick egress rests before it is chosen again. */
export const EGRESS_REST_MS = 5 * 60_000;

/** The egress id without any configuration: this host's own address. */
export const DIRECT_EGRESS = "direct";
/** The egress id of OUTBOUND_IPV6_CIDR. */
export const IPV6_EGRESS = "ipv6";

/** The streams with `egress` on their requests: every request for them goes out that way (affinity). */
export function withEgress(streams: UpstreamStream[], egress: EgressRef): UpstreamStream[] {
  return streams.map((s) => ({ ...s, request: { ...s.request, egress } }));
}

/** A routed IPv6 prefix: its network as a number and its length. */
export interface Ipv6Prefix {
  network: bigint;
  bits: number;
}

/** Connects a raw TCP socket to a destination the egress's way (TLS, if any, is the caller's). */
export type Dial = (to: { host: string; port: number; guarded: boolean }, timeoutMs: number, signal?: AbortSignal | null) => Promise<Socket>;

/** An egress other than `direct`, ready to connect: `key` tells pooled connections apart. */
export interface EgressDialer {
  key: string;
  dial: Dial;
}

/** Splits OUTBOUND_PROXIES (commas or spaces) into proxies; throws an Error whose message names no credentials. */
export function parseOutboundProxies(raw: string | undefined): ProxySpec[] {
  if (!raw || raw.trim() === "") return [];
  return raw
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((item, i) => {
      const which = `OUTBOUND_PROXIES entry ${i + 1}`;
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        // the raw text may hold a password: the message never repeats it
        throw new Error(`${which} is not a URL (expected http://, https:// or socks5://host:port, with optional user:password@)`);
      }
      const protocol = url.protocol;
      if (protocol !== "http:" && protocol !== "https:" && protocol !== "socks5:") {
        throw new Error(`${which} must start with http://, https:// or socks5:// (got ${protocol}//)`);
      }
      const host = unbracket(url.hostname);
      if (!host) throw new Error(`${which} has no host`);
      if ((url.pathname !== "" && url.pathname !== "/") || url.search || url.hash) {
        throw new Error(`${which} must be only scheme://[user:password@]host:port (no path or query)`);
      }
      const port = Number(url.port) || (protocol === "https:" ? 443 : protocol === "socks5:" ? 1080 : 80);
      const spec: ProxySpec = { protocol, host, port };
      if (url.username || url.password) {
        spec.username = decodeURIComponent(url.username);
        spec.password = decodeURIComponent(url.password);
      }
      return spec;
    });
}

/** Parses OUTBOUND_IPV6_CIDR (`2001:db8:1234::/48`); the host bits are ignored. */
export function parseIpv6Cidr(raw: string | undefined): Ipv6Prefix | undefined {
  if (!raw || raw.trim() === "") return undefined;
  const m = /^([0-9a-fA-F:]+)\/(\d{1,3})$/.exec(raw.trim());
  if (!m) throw new Error("OUTBOUND_IPV6_CIDR must be an IPv6 prefix such as 2001:db8:1234::/48");
  const bits = Number(m[2]);
  if (bits > 128) throw new Error("OUTBOUND_IPV6_CIDR's prefix length must be 0 to 128");
  let address: bigint;
  try {
    address = ipv6ToBigInt(m[1]!);
  } catch {
    throw new Error("OUTBOUND_IPV6_CIDR must be an IPv6 prefix such as 2001:db8:1234::/48");
  }
  return { network: address & prefixMask(bits), bits };
}

function prefixMask(bits: number): bigint {
  const all = (1n << 128n) - 1n;
  return bits === 0 ? 0n : (all << BigInt(128 - bits)) & all;
}

/** The prefix as text (`2001:db8::/48`). */
export function formatIpv6Prefix(prefix: Ipv6Prefix): string {
  return `${bigIntToIpv6(prefix.network)}/${prefix.bits}`;
}

/** Whether `address` lies inside `prefix`. */
export function inIpv6Prefix(prefix: Ipv6Prefix, address: string): boolean {
  try {
    return (ipv6ToBigInt(address) & prefixMask(prefix.bits)) === prefix.network;
  } catch {
    return false;
  }
}

/**
 * A random address inside `prefix` (`random` gives 16 random bytes). The all-zero host (the
 * subnet-router anycast address) is skipped where the prefix has room for another.
 */
export function randomIpv6In(prefix: Ipv6Prefix, random: (n: number) => Buffer = randomBytes): string {
  const hostMask = ((1n << 128n) - 1n) ^ prefixMask(prefix.bits);
  for (;;) {
    const host = BigInt(`0x${random(16).toString("hex")}`) & hostMask;
    if (host !== 0n || prefix.bits >= 127) return bigIntToIpv6(prefix.network | host);
  }
}

export interface EgressPoolOptions {
  proxies?: readonly ProxySpec[];
  ipv6?: Ipv6Prefix;
  /** DNS for the guarded destinations (all addresses of a name) */
  resolve: ResolveHost;
  logger?: Pick<Logger, "warn" | "info">;
  now?: () => number;
  restMs?: number;
  /** 16 random bytes for an IPv6 source address (tests) */
  random?: (n: number) => Buffer;
}

export interface EgressPool {
  /** every egress, in order: `ipv6` first when set, then `proxy-1`…; `direct` alone without configuration */
  readonly ids: readonly string[];
  /** whether OUTBOUND_PROXIES or OUTBOUND_IPV6_CIDR made a pool (otherwise everything is `direct`) */
  readonly configured: boolean;
  /** The egress a fresh resolve of `key` (a link) takes: the link's own unless it rests; `ipv6` with a new source address. */
  choose(key: string): EgressRef;
  /** An egress other than `id` that is not resting (a fresh `ipv6` address), or null when there is none. */
  other(id: string): EgressRef | null;
  /** Egress `id` itself, resting or not (a fresh `ipv6` address): the canary's check of one egress; null for an id not in the pool. */
  pinned(id: string): EgressRef | null;
  /** Rests `id` for the rest time (logged once per rest, with `reason`); unknown ids are ignored. */
  rest(id: string, reason: string): void;
  resting(id: string): boolean;
  /** How to connect for `ref`: null for `direct` or no ref (the door's own sockets). An unknown id (another server's answer) takes this pool's choice for it. */
  dialer(ref: EgressRef | undefined): EgressDialer | null;
}

/** A stable number for a link, so its resolves keep to one egress (FNV-1a). */
function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function connectTcp(options: net.TcpNetConnectOpts, label: string, timeoutMs: number, signal?: AbortSignal | null): Promise<Socket> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return awaitConnect(net.connect(options), "connect", label, timeoutMs, signal);
}

export function createEgressPool(opts: EgressPoolOptions): EgressPool {
  const proxies = opts.proxies ?? [];
  const now = opts.now ?? Date.now;
  const restMs = opts.restMs ?? EGRESS_REST_MS;
  const random = opts.random ?? randomBytes;
  const ids = [...(opts.ipv6 ? [IPV6_EGRESS] : []), ...proxies.map((_, i) => `proxy-${i + 1}`)];
  const configured = ids.length > 0;
  if (!configured) ids.push(DIRECT_EGRESS);
  const restingUntil = new Map<string, number>();
  const checkedResolve = guardedResolve(opts.resolve);

  const isResting = (id: string) => (restingUntil.get(id) ?? 0) > now();
  const refOf = (id: string): EgressRef => (id === IPV6_EGRESS && opts.ipv6 ? { id, localAddress: randomIpv6In(opts.ipv6, random) } : { id });

  /** the destination's addresses: checked by the guard for a user's name, as they are for an address or a trusted name */
  async function addressesOf(host: string, guarded: boolean): Promise<Array<{ address: string; family: number }>> {
    const bare = unbracket(host);
    const family = isIP(bare);
    if (family) {
      if (guarded && isBlockedAddress(bare)) throw new EngineError("link.blocked_address", { detail: `${bare} is not a public address` });
      return [{ address: bare, family }];
    }
    if (guarded) return checkedResolve(bare);
    const all = (await opts.resolve(bare)).filter((a) => a.family === 4 || a.family === 6);
    if (all.length === 0) throw Object.assign(new Error(`no address for ${bare}`), { code: "ENOTFOUND" });
    return all;
  }

  function proxyDialer(id: string, proxy: ProxySpec): EgressDialer {
    return {
      key: id,
      async dial(to, timeoutMs, signal) {
        // a user's destination: the guard resolves and checks it here, and the proxy is asked for
        // that address; a trusted one (a mapped origin) goes to the proxy as it is named
        const host = to.guarded ? (await addressesOf(to.host, true))[0]!.address : unbracket(to.host);
        try {
          return await connectThroughProxy(proxy, { host, port: to.port }, timeoutMs, signal);
        } catch (err) {
          // the proxy failing (not the destination behind it) makes its egress sick
          if (isProxyFault(err) && !signal?.aborted) pool.rest(id, (err as Error).message);
          throw err;
        }
      },
    };
  }

  function ipv6Dialer(localAddress: string): EgressDialer {
    return {
      key: `${IPV6_EGRESS}|${localAddress}`,
      async dial(to, timeoutMs, signal) {
        const addresses = await addressesOf(to.host, to.guarded);
        const v6 = addresses.find((a) => a.family === 6);
        // a destination without an IPv6 address is reached over the host's own IPv4, as before
        if (!v6) return connectTcp({ host: addresses[0]!.address, port: to.port }, to.host, timeoutMs, signal);
        return connectTcp({ host: v6.address, port: to.port, localAddress, family: 6 }, to.host, timeoutMs, signal);
      },
    };
  }

  const proxyDialers = new Map(proxies.map((p, i) => [`proxy-${i + 1}`, proxyDialer(`proxy-${i + 1}`, p)]));

  const pool: EgressPool = {
    ids,
    configured,

    choose(key) {
      const start = hashOf(key) % ids.length;
      let soonest = ids[start]!;
      for (let i = 0; i < ids.length; i++) {
        const id = ids[(start + i) % ids.length]!;
        if (!isResting(id)) return refOf(id);
        if ((restingUntil.get(id) ?? 0) < (restingUntil.get(soonest) ?? 0)) soonest = id;
      }
      // every egress rests: the one that wakes first is still better than none
      return refOf(soonest);
    },

    other(id) {
      const at = ids.indexOf(id);
      for (let i = 1; i <= ids.length; i++) {
        const next = ids[(Math.max(at, 0) + i) % ids.length]!;
        if (next !== id && !isResting(next)) return refOf(next);
      }
      return null;
    },

    pinned: (id) => (ids.includes(id) ? refOf(id) : null),

    rest(id, reason) {
      if (!ids.includes(id) || id === DIRECT_EGRESS) return;
      const wasResting = isResting(id);
      restingUntil.set(id, now() + restMs);
      if (!wasResting) opts.logger?.warn({ egress: id, reason, restSeconds: Math.round(restMs / 1000) }, "egress is sick: resting it and using the next one meanwhile");
    },

    resting: isResting,

    dialer(ref) {
      // a request outside any resolve, or a server without a pool: this host's own address
      if (!configured || !ref || ref.id === DIRECT_EGRESS) return null;
      if (ref.id === IPV6_EGRESS && opts.ipv6) {
        // an address from outside our prefix (another server's answer) cannot be ours to bind
        const address = ref.localAddress && inIpv6Prefix(opts.ipv6, ref.localAddress) ? ref.localAddress : randomIpv6In(opts.ipv6, random);
        return ipv6Dialer(address);
      }
      const known = proxyDialers.get(ref.id);
      if (known) return known;
      return pool.dialer(pool.choose(ref.id));
    },
  };
  return pool;
}

/** The egresses as the start log names them (proxies without credentials). */
export function describeEgress(proxies: readonly ProxySpec[], ipv6: Ipv6Prefix | undefined): string[] {
  return [...(ipv6 ? [`${IPV6_EGRESS} (${formatIpv6Prefix(ipv6)})`] : []), ...proxies.map((p, i) => `proxy-${i + 1} (${proxyLabel(p)})`)];
}
