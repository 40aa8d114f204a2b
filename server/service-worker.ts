import path from "node:path";
import type { Response } from "express";
import { SERVICE_WORKER_URL } from "#app/modules/offline/offline-contract.ts";

/**
 * The worker's own policy. A worker obeys the CSP of its script's response, and ours fetches the
 * thumbnails the queue panel keeps, which come from video hosts (and, in tests, mapped origins)
 * that the pages' connect-src does not list. It runs no script but its own file.
 */
export const SERVICE_WORKER_CSP = "default-src 'none'; script-src 'self'; connect-src *";

/**
 * express.static's setHeaders for the client folder: the worker script is revalidated on every
 * load (a new build must be found at once, and its URL never changes) and gets its own CSP.
 */
export function staticFileHeaders(res: Response, filePath: string): void {
  if (path.basename(filePath) !== SERVICE_WORKER_URL.slice(1)) return;
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("Content-Security-Policy", SERVICE_WORKER_CSP);
}
