import type { LookupFunction } from "node:net";
import { EngineError } from "../errors.ts";
import { isBlockedAddress } from "./address-guard.ts";

export type ResolveHost = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/**
 * The SSRF guard as a socket's own lookup (DESIGN §6): resolves the name, refuses the connection
 * when any address is blocked, and hands the socket exactly the addresses that were checked, so
 * DNS cannot change its answer between the check and the connect. Every guarded connection
 * (parallel ranges and segments included) goes through it.
 */
export function createGuardedLookup(resolve: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    // "localhost." and "localhost" are the same name; resolve without the root dot.
    resolve(hostname.replace(/\.$/, "")).then(
      (addresses) => {
        const usable = addresses.filter((a) => a.family === 4 || a.family === 6);
        if (usable.length === 0) {
          const err = Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" });
          callback(err, "", 4);
          return;
        }
        const bad = usable.find((a) => isBlockedAddress(a.address));
        if (bad) {
          callback(new EngineError("link.blocked_address", { detail: `${hostname} resolves to ${bad.address}` }), "", 4);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? usable.filter((a) => a.family === options.family) : usable;
        const list = wanted.length > 0 ? wanted : usable;
        if (options.all) (callback as unknown as (e: null, a: typeof list) => void)(null, list);
        else callback(null, list[0]!.address, list[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, "", 4),
    );
  };
}
