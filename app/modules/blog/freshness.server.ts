import type { Logger } from "pino";
import type { Database } from "#db/client.ts";
import { ensureGeneratedArticlesToday } from "./generated-store.server.ts";

/** Spec §9: the freshness check runs every 3 hours. */
export const FRESHNESS_INTERVAL_MS = 10_800_000;

/**
 * Start the blog's freshness check: catch up now, then every 3 hours (a new calendar day adds
 * its 15 articles). Returns a stop function for graceful shutdown. A failed check is logged and
 * retried at the next tick; blog requests also catch up lazily, so nothing is lost meanwhile.
 */
export function startBlogFreshness(deps: { db: Database; logger: Logger; intervalMs?: number; now?: () => Date }): () => void {
  const logger = deps.logger.child({ module: "blog-freshness" });
  const run = () =>
    ensureGeneratedArticlesToday(deps.db, { now: deps.now?.(), logger }).catch((err: unknown) => {
      logger.error({ err }, "blog: generating new articles failed; will retry at the next check");
    });
  void run();
  const timer = setInterval(run, deps.intervalMs ?? FRESHNESS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
