import { BlockList, isIP } from "node:net";

/**
 * The SSRF guard's address test (DESIGN §6): user links must not reach loopback, private,
 * shared (CGNAT), link-local (cloud metadata at 169.254.169.254), multicast, unspecified,
 * documentation/reserved ranges, or IPv6 forms that can smuggle an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo).
 */
// One list per family: a BlockList tests IPv4 addresses against IPv6 rules in their mapped form,
// so the IPv4-mapped rule would otherwise block every IPv4 address.
const blockedV4 = new BlockList();
const blockedV6 = new BlockList();

const V4: Array<[string, number]> = [
  ["0.0.0.0", 8], // "this network", includes 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved + broadcast
];
const V6: Array<[string, number]> = [
  ["::", 96], // unspecified, loopback, IPv4-compatible
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001::", 32], // Teredo
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
];
for (const [net, prefix] of V4) blockedV4.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of V6) blockedV6.addSubnet(net, prefix, "ipv6");

/** `[::1]` → `::1`; other host names unchanged. */
export function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** True when `address` (an IP literal) must not be contacted for a user's link. Non-IPs are blocked. */
export function isBlockedAddress(address: string): boolean {
  const ip = unbracket(address).split("%")[0]!; // drop an IPv6 zone id
  const family = isIP(ip);
  if (family === 4) return blockedV4.check(ip, "ipv4");
  if (family === 6) return blockedV6.check(ip, "ipv6");
  return true;
}
