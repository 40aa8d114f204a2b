/**
 * The one rule for sizes shown to a visitor (the format card, the progress bar, the dashboard's
 * history): decimal units, 1 MB = 1,000,000 bytes, as file managers on phones and macOS count.
 * A file the card calls 31.0 MB is 31.0 MB in the bar and in the history, never "29.5 MB".
 * Dependency-free: it runs in the browser bundle and in the engine.
 */
const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/** "84.2 MB", "512 KB", "1.5 GB"; an estimate gets a leading "~". Anything not a size is "0 B". */
export function formatByteSize(bytes: number, estimated = false): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "0 B";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  // 999.96 KB rounds to "1000 KB"; it reads as the next unit
  if (unit > 0 && unit < UNITS.length - 1 && Math.round(value) >= 1000) {
    value /= 1000;
    unit++;
  }
  const text = unit === 0 ? `${Math.round(value)} B` : `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${UNITS[unit]}`;
  return estimated ? `~${text}` : text;
}
