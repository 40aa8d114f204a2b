import { formatByteSize } from "#common/byte-units.ts";

/** Byte counts for the progress bar and the history ("12.4 MB"): the card's decimal units (common/byte-units.ts). */
export function formatBytes(bytes: number): string {
  return formatByteSize(bytes);
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
