/** Human byte counts for the progress bar ("12.4 MB"), in the engine's 1024-based units. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "0 B";
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Whole percent, clamped; null when the total is unknown. */
export function percentOf(bytes: number, total: number | null | undefined): number | null {
  if (!total || total <= 0) return null;
  return Math.max(0, Math.min(100, Math.floor((bytes / total) * 100)));
}

/**
 * Smoothed transfer speed: an exponential moving average over the samples the progress stream
 * sends, so the number does not jump on every event.
 */
export class SpeedMeter {
  private lastBytes = 0;
  private lastAt: number | null = null;
  private rate = 0;
  constructor(private readonly smoothing = 0.3) {}

  sample(bytes: number, at: number): number {
    if (this.lastAt === null) {
      this.lastAt = at;
      this.lastBytes = bytes;
      return this.rate;
    }
    const dt = (at - this.lastAt) / 1000;
    if (dt <= 0) return this.rate;
    const instant = Math.max(0, bytes - this.lastBytes) / dt;
    this.rate = this.rate === 0 ? instant : this.rate + this.smoothing * (instant - this.rate);
    this.lastAt = at;
    this.lastBytes = bytes;
    return this.rate;
  }
}
