/**
 * How long a signed-in user's download history is kept (the privacy policy says the same, from
 * this constant): long enough to find and repeat a download from last month, not a record of
 * everything someone ever saved.
 */
export const HISTORY_RETENTION_DAYS = 90;

/** The oldest moment still kept at `now`. */
export function historyCutoff(now: Date): Date {
  return new Date(now.getTime() - HISTORY_RETENTION_DAYS * 86_400_000);
}
