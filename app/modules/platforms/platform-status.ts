/** A platform card as /supported-sites shows it, and its status label (browser code: no platform table here). */
export type PlatformStatus = "fully-supported" | "basic-support" | "planned";

export const PLATFORM_STATUS_LABELS: Record<PlatformStatus, string> = {
  "fully-supported": "Fully Supported",
  "basic-support": "Basic Support",
  planned: "Coming Soon",
};

export interface PlatformEntry {
  name: string;
  /** monogram and brand colour for the logo badge (we do not ship third-party logos) */
  logo: { letter: string; background: string };
  description: string;
  formats: string[];
  maxQuality: string;
  status: PlatformStatus;
  features: string[];
  /** set when the status depends on something this server lacks: what the operator must add */
  needs?: string;
}

/** "Basic Support", or "Basic Support (needs yt-dlp on this server)" when this server lacks it. */
export function statusLabel(p: PlatformEntry): string {
  return p.needs ? `${PLATFORM_STATUS_LABELS[p.status]} (needs ${p.needs})` : PLATFORM_STATUS_LABELS[p.status];
}

