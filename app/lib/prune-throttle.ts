/**
 * A prune scans a whole table, so the requests that trigger one (a download, a sign-up) run it at
 * most once per interval per database handle; `force` (the daily sweep) always runs.
 */
export function pruneThrottle(everyMs: number = 60 * 60 * 1000) {
  const lastRun = new WeakMap<object, number>();
  return function due(db: object, now: Date, force = false): boolean {
    const last = lastRun.get(db);
    if (!force && last !== undefined && now.getTime() - last < everyMs) return false;
    lastRun.set(db, now.getTime());
    return true;
  };
}
