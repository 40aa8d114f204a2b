import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import { EngineError } from "../errors.ts";
import { isBlockedAddress } from "./address-guard.ts";

export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** The system's DNS: every address of a name, in the resolver's order. */
export const defaultResolveHost: ResolveHost = async (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The SSRF guard's DNS step (DESIGN §6): every address of the name, refused as a whole when any
 * of them is blocked. The addresses it answers are the ones to connect to.
 */
export function guardedResolve(resolve: ResolveHost): ResolveHost {
  return async (hostname) => {
    // "localhost." and "localhost" are the same name; resolve without the root dot.
    const addresses = await resolve(hostname.replace(/\.$/, ""));
    const usable = addresses.filter((a) => a.family === 4 || a.family === 6);
    if (usable.length === 0) throw Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
    const bad = usable.find((a) => isBlockedAddress(a.address));
    if (bad) throw new EngineError("link.blocked_address", { detail: `${hostname} resolves to ${bad.address}` });
    return usable;
  };
}

/**
 * The SSRF guard as a socket's own lookup: resolves the name, refuses the connection when any
 * address is blocked, and hands the socket exactly the addresses that were checked, so DNS cannot
 * change its answer between the check and the connect. Every guarded connection (parallel ranges
 * and segments included) goes through it; an egress's connections use `guardedResolve` itself.
 */
export function createGuardedLookup(resolve: ResolveHost): LookupFunction {
  const checked = guardedResolve(resolve);
  return (hostname, options, callback) => {
    checked(hostname).then(
      (usable) => {
        const wanted = options.family === 4 || options.family === 6 ? usable.filter((a) => a.family === options.family) : usable;
        const list = wanted.length > 0 ? wanted : usable;
        if (options.all) (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, "", 4),
    );
  };
}
