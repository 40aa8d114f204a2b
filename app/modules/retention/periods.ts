/**
 * How long what visitors send us is kept; the privacy policy quotes these constants, and the
 * retention sweep deletes by them. (Download history has its own: history/retention.ts.)
 */
export const CONTACT_MESSAGE_RETENTION_MONTHS = 12;
export const PLATFORM_REQUEST_RETENTION_MONTHS = 24;

/** The oldest moment still kept at `now`, `months` calendar months back (UTC). */
export function monthsBefore(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}
