/**
 * What the playlist card may offer the viewer, decided on the server from their plan
 * (downloader-offer.server.ts): one ZIP of the picked videos for plans with bulk downloads, and
 * the formats the plan may download.
 */
export interface PlaylistPlan {
  /** the plan has bulk downloads (Ultimate) */
  canBulk: boolean;
  /** videos one ZIP may hold on this plan (0 without bulk downloads) */
  maxLinks: number;
  formats: Array<{ id: string; label: string }>;
}

/** One of the viewer's download profiles, as the format picker offers it (Ultimate). */
export interface DownloadProfileChoice {
  id: string;
  name: string;
  /** the profile's format id */
  format: string;
}
