/**
 * A wall-clock time the visitor typed (`<input type="datetime-local">`: "2026-11-27T09:30") in
 * their time zone, as the instant it names. Browser-safe (Intl only). Null for a malformed time
 * or an unknown zone. A time a daylight-saving change skips resolves to the instant just after.
 */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function offsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

export function zonedLocalToUtc(local: string, timeZone: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  try {
    // the zone's offset at a first guess, then at the corrected instant (they differ across a change)
    let instant = wall - offsetMs(wall, timeZone);
    instant = wall - offsetMs(instant, timeZone);
    return new Date(instant);
  } catch {
    return null;
  }
}

/** "2026-11-27T09:30" for an instant in a time zone: the value a datetime-local input shows. */
export function utcToZonedLocal(instant: Date, timeZone: string): string {
  const shifted = new Date(instant.getTime() + offsetMs(instant.getTime(), timeZone));
  return shifted.toISOString().slice(0, 16);
}
