import { describe, expect, it } from "vitest";
import { isProxyNetworkAddress, trustProxySetting, type TrustProxyFn } from "./trust-proxy.ts";

describe("TRUST_PROXY", () => {
  it("a hop count believes X-Forwarded-For only when the peer is on loopback or a private network", () => {
    const trust = trustProxySetting("1") as TrustProxyFn;
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "10.1.2.3", "172.18.0.5", "192.168.1.9", "fd00::2"]) expect(trust(peer, 0), peer).toBe(true);
    for (const peer of ["192.0.2.2", "203.0.113.9", "8.8.8.8", "::ffff:8.8.8.8", "2001:db8::1", "172.32.0.1", undefined]) expect(trust(peer, 0), String(peer)).toBe(false);
    // one hop: the proxy's own entry only, never one a client planted behind it
    expect(trust("203.0.113.9", 1)).toBe(false);
  });

  it("two hops (CDN, then nginx) count the CDN's entry once nginx is the peer", () => {
    const trust = trustProxySetting("2") as TrustProxyFn;
    expect(trust("127.0.0.1", 0)).toBe(true);
    expect(trust("173.245.48.10", 1)).toBe(true);
    expect(trust("198.51.100.7", 2)).toBe(false);
  });

  it("`true` still needs the peer on a proxy network; a subnet list goes to Express as written; unset or 0 trusts nobody", () => {
    const all = trustProxySetting("true") as TrustProxyFn;
    expect(all("8.8.8.8", 0)).toBe(false);
    expect(all("10.0.0.1", 0) && all("8.8.8.8", 5)).toBe(true);
    expect(trustProxySetting("loopback,173.245.48.0/20")).toBe("loopback,173.245.48.0/20");
    expect(trustProxySetting(undefined)).toBe(false);
    expect(trustProxySetting("0")).toBe(false);
    expect(trustProxySetting("false")).toBe(false);
    expect(isProxyNetworkAddress("not an address")).toBe(false);
  });
});
