import type { Logger } from "pino";
import { runCanary, type CanaryDeps } from "#app/modules/platform-health/run-canary.server.ts";
import type { JobDefinition } from "./runner.ts";

/** The queue of the canary that checks each platform's links (issue 32 §5). */
export const CANARY_QUEUE = "platform-canary";

/**
 * Every `minutes` minutes as a cron (UTC): under an hour, at the minutes of each hour divisible by
 * it (30 → :00 and :30; a value that does not divide 60 also runs at :00); an hour or more, at
 * minute 3 of every `minutes / 60` hours (rounded). null for 0 (the canary is off).
 */
export function canaryCron(minutes: number): string | null {
  if (minutes <= 0) return null;
  if (minutes < 60) return `*/${minutes} * * * *`;
  const hours = Math.min(24, Math.max(1, Math.round(minutes / 60)));
  return hours === 24 ? "3 0 * * *" : `3 */${hours} * * *`;
}

export interface CanaryJobDeps {
  links: readonly string[];
  intervalMinutes: number;
  canary: Omit<CanaryDeps, "logger">;
  logger: Logger;
  /** after each run: the host writes the counts and reorders the clients */
  afterRun?: () => Promise<void>;
}

/**
 * Runs once per occurrence across instances (pg-boss keeps the cron); a run is not retried: the
 * next one comes soon. Turned off (CANARY_INTERVAL_MINUTES=0, or no links), the queue stays
 * defined without a cron, so the runner removes a schedule an earlier start left in pg-boss.
 */
export function canaryJob(deps: CanaryJobDeps): JobDefinition<null> {
  const cron = deps.links.length > 0 ? canaryCron(deps.intervalMinutes) : null;
  return {
    queue: CANARY_QUEUE,
    ...(cron ? { cron } : {}),
    queueOptions: { retryLimit: 0, expireInSeconds: 15 * 60, deleteAfterSeconds: 24 * 3600 },
    async handler(job) {
      if (!cron) return { skipped: "the canary is off" };
      const results = await runCanary(deps.links, { ...deps.canary, logger: deps.logger }, job.signal);
      await deps.afterRun?.();
      const failed = results.filter((r) => !r.ok).map((r) => ({ link: r.link, ...(r.client ? { client: r.client } : {}), ...(r.pinned ? { egress: r.egress } : {}), code: r.code }));
      return { passed: results.filter((r) => r.ok).length, failed };
    },
  };
}
