import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

/** OUTBOUND_PROXIES and OUTBOUND_IPV6_CIDR (issue 32 §3, decision 057): checked at start, credentials never repeated. */
describe("egress configuration", () => {
  it("is unset by default, and keeps good values as given", () => {
    expect(loadConfig({}).OUTBOUND_PROXIES).toBeUndefined();
    const c = loadConfig({ OUTBOUND_PROXIES: " http://user:pw@proxy.example:3128, socks5://10.0.0.2:1080 ", OUTBOUND_IPV6_CIDR: "2001:db8:1234::/48" });
    expect(c.OUTBOUND_PROXIES).toBe("http://user:pw@proxy.example:3128, socks5://10.0.0.2:1080");
    expect(c.OUTBOUND_IPV6_CIDR).toBe("2001:db8:1234::/48");
  });

  it("refuses a bad proxy list naming the entry, never its password", () => {
    let err: unknown;
    try {
      loadConfig({ OUTBOUND_PROXIES: "http://op:hunter2@proxy.example:3128 gopher://op:hunter2@other.example" });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as ConfigError).message;
    expect(message).toContain("OUTBOUND_PROXIES: OUTBOUND_PROXIES entry 2 must start with http://, https:// or socks5://");
    expect(message).not.toContain("hunter2");
  });

  it("refuses what is not an IPv6 prefix", () => {
    expect(() => loadConfig({ OUTBOUND_IPV6_CIDR: "203.0.113.0/24" })).toThrow(/OUTBOUND_IPV6_CIDR: OUTBOUND_IPV6_CIDR must be an IPv6 prefix/);
    expect(() => loadConfig({ OUTBOUND_IPV6_CIDR: "2001:db8::/200" })).toThrow(/prefix length must be 0 to 128/);
  });
});
