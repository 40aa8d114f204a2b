import { BlockList, isIP } from "node:net";

/** Express's compiled "trust proxy" setting: whether the hop at this address may be believed. */
export type TrustProxyFn = (address: string | undefined, hop: number) => boolean;

/**
 * Where a reverse proxy of ours can connect from: the same host or a private network (a
 * container network, a VPC). An address on the public internet is a client, never our proxy.
 */
const PROXY_NETWORKS = new BlockList();
PROXY_NETWORKS.addSubnet("127.0.0.0", 8, "ipv4");
PROXY_NETWORKS.addSubnet("10.0.0.0", 8, "ipv4");
PROXY_NETWORKS.addSubnet("172.16.0.0", 12, "ipv4");
PROXY_NETWORKS.addSubnet("192.168.0.0", 16, "ipv4");
PROXY_NETWORKS.addSubnet("169.254.0.0", 16, "ipv4");
PROXY_NETWORKS.addAddress("::1", "ipv6");
PROXY_NETWORKS.addSubnet("fc00::", 7, "ipv6");
PROXY_NETWORKS.addSubnet("fe80::", 10, "ipv6");

export function isProxyNetworkAddress(address: string | undefined): boolean {
  if (!address) return false;
  // a dual-stack socket reports an IPv4 peer as ::ffff:a.b.c.d
  const plain = address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain);
  if (!family) return false;
  return PROXY_NETWORKS.check(plain, family === 4 ? "ipv4" : "ipv6");
}

/**
 * TRUST_PROXY as Express's "trust proxy" value (issue 27 §18). A subnet list (`loopback,
 * 173.245.48.0/20`) is passed on: Express believes X-Forwarded-For only from those addresses.
 * A hop count (`1`) or `true` names no address, and Express alone would believe the header
 * from anyone, so an instance reached directly (its port open past the proxy) let a client
 * choose its own address for every per-IP limit. Here the nearest hop, the socket's peer, must
 * also be on loopback or a private network; only then are the hops behind it counted.
 * See docs/decisions/036-forwarded-addresses-only-from-a-proxy-network.md.
 */
export function trustProxySetting(value: string | undefined): string | TrustProxyFn | false {
  if (!value || value === "false") return false;
  const hops = value === "true" ? Number.POSITIVE_INFINITY : /^\d+$/.test(value) ? Number(value) : undefined;
  if (hops === undefined) return value;
  if (hops === 0) return false;
  return (address, hop) => hop < hops && (hop > 0 || isProxyNetworkAddress(address));
}
