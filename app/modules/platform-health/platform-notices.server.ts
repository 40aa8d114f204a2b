import type { Logger } from "pino";
import { readPlatformHealth, servedPlatforms, type PlatformHealthStore } from "./health-store.server.ts";
import type { PlatformNotice } from "./platform-notices.tsx";

/** how old the pages' copy of the record may be before a page view refreshes it */
const REFRESH_MS = 15_000;

export interface PlatformNoticeSource {
  /** the platforms in trouble as last read (at once, never waited for); a read older than 15 s starts a new one */
  current(): PlatformNotice[];
}

/**
 * The platforms whose downloads are not working well right now, in the words the status endpoint
 * gives, for the home page and /supported-sites. Pages never wait for the record (it may be in
 * Redis): they show the last reading, refreshed in the background; a reading that fails keeps
 * the previous one and is logged.
 */
export function createPlatformNotices(opts: { store: PlatformHealthStore; ytdlp: boolean; logger: Pick<Logger, "warn">; now?: () => number }): PlatformNoticeSource {
  const now = opts.now ?? Date.now;
  let notices: PlatformNotice[] = [];
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  const refresh = () => {
    readAt = now();
    reading = readPlatformHealth(opts.store, servedPlatforms({ ytdlp: opts.ytdlp }), now())
      .then((health) => {
        notices = health.flatMap((p) => (p.status !== "ok" && p.detail ? [{ id: p.id, status: p.status, detail: p.detail }] : []));
      })
      .catch((err: unknown) => opts.logger.warn({ err }, "platform health unavailable: the pages keep the last reading"))
      .finally(() => (reading = null));
  };
  return {
    current() {
      if (!reading && now() - readAt >= REFRESH_MS) refresh();
      return notices;
    },
  };
}
