import express, { type Router } from "express";
import { readPlatformHealth, servedPlatforms, type PlatformHealthStore } from "#app/modules/platform-health/health-store.server.ts";

/** seconds a status answer may be reused: short, so trouble shows within a minute */
const STATUS_MAX_AGE_SECONDS = 30;

/**
 * `GET /api/v1/status` (issue 32 §5): each platform this server serves, with its status from
 * recent resolves, downloads and canary checks (app/modules/platform-health/health-rule.ts), when a link
 * of it last worked, and plain words when it is not "ok". No caller is needed.
 */
export function createStatusRouter(deps: { store: PlatformHealthStore; ytdlp: () => boolean; now?: () => number }): Router {
  const router = express.Router();
  router.get("/status", async (_req, res) => {
    const health = await readPlatformHealth(deps.store, servedPlatforms({ ytdlp: deps.ytdlp() }), (deps.now ?? Date.now)());
    res.set("cache-control", `public, max-age=${STATUS_MAX_AGE_SECONDS}`).json({
      platforms: health.map((p) => ({ id: p.id, status: p.status, lastSuccessAt: p.lastSuccessAt, detail: p.detail })),
    });
  });
  return router;
}
