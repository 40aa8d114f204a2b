import type { Logger } from "pino";
import { LADDER_CLIENT } from "./failure-types.ts";
import type { CanaryStanding } from "./health-counts.server.ts";

/**
 * The order YouTube's clients are asked in adapts to the canary (issue 32 §5, decision 058): a
 * client whose latest canary check failed (on any egress) is asked after the clients that pass,
 * until a check of it passes again; then it is back in its configured place. Among the passing
 * and among the failing, the configured order stands. Only canaries move a client: each check
 * asks every client on its own, whatever the order, so a client moved down is still checked and
 * can come back; real traffic stops at the first client that works and would never re-test it.
 *
 * The engine reads `order` at every resolve (EngineDeps.clientOrder); `refresh` reads the
 * standings again (after each canary run, and every REFRESH_MS on every instance).
 */

export const REFRESH_MS = 60_000;

/** how a configured name is recorded: InnerTube clients upper case, `ytdlp` as it is */
export function clientKey(name: string): string {
  const trimmed = name.trim();
  return trimmed.toLowerCase() === "ytdlp" ? "ytdlp" : trimmed.toUpperCase();
}

export { LADDER_CLIENT };

/** The clients whose latest canary check on `platform` failed. */
export function failingClients(standings: readonly CanaryStanding[], platform = "youtube"): Set<string> {
  return new Set(
    standings.filter((s) => s.platform === platform && s.client !== LADDER_CLIENT && s.lastFailureAt !== null && s.lastFailureAt > (s.lastOkAt ?? -Infinity)).map((s) => s.client),
  );
}

/** `configured` with the failing clients moved after the others, each group in its configured order. */
export function rankClients(configured: readonly string[], failing: ReadonlySet<string>): readonly string[] {
  if (failing.size === 0) return configured;
  const down = (c: string) => failing.has(clientKey(c));
  return [...configured.filter((c) => !down(c)), ...configured.filter(down)];
}

export interface ClientOrder {
  /** the engine's hook: the configured YouTube clients in the order to ask them */
  order(configured: readonly string[]): readonly string[];
  /** the clients moved down now */
  failing(): string[];
  refresh(): Promise<void>;
  stop(): void;
}

export function createClientOrder(opts: { standings: () => Promise<CanaryStanding[]>; logger: Pick<Logger, "warn" | "info">; refreshMs?: number }): ClientOrder {
  let failing = new Set<string>();
  const refresh = async () => {
    try {
      const next = failingClients(await opts.standings());
      const was = [...failing].sort().join(",");
      const now = [...next].sort().join(",");
      if (was !== now) opts.logger.info({ failing: [...next] }, next.size > 0 ? "youtube: clients failing their canaries are asked last" : "youtube: every client passes its canaries; the configured order stands");
      failing = next;
    } catch (err) {
      // the last standings stay: the order never fails a resolve
      opts.logger.warn({ err }, "could not read the canary standings; the client order stays as it was");
    }
  };
  const timer = setInterval(() => void refresh(), opts.refreshMs ?? REFRESH_MS);
  timer.unref();
  return {
    order: (configured) => rankClients(configured, failing),
    failing: () => [...failing],
    refresh,
    stop: () => clearInterval(timer),
  };
}
