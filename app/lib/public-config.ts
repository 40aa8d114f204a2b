/**
 * The configuration the browser may see, and the allow-list that picks it out of the server's
 * settings. It lives in app/ because pages read it (app never imports server/); server/config.ts
 * hands its parsed settings to `publicConfig` and re-exports these names.
 */

/** Where an ad slot sits on the page (the keys of AD_SLOTS). */
export type AdPlacement = "header" | "footer" | "sidebar" | "in-content";

/** The settings `publicConfig` reads, as server/config.ts parses them (its AppConfig has them all). */
export interface PublicSettings {
  SITE_NAME: string;
  PUBLIC_URL: string;
  BANNER_MESSAGE: string;
  AD_PROVIDER: "none" | "adsense";
  AD_CLIENT?: string | undefined;
  AD_SLOTS: Partial<Record<AdPlacement, string>>;
  CONTACT_EMAIL?: string | undefined;
  SUPPORT_ULTIMATE_EMAIL?: string | undefined;
}

/** The values the browser may see (a small explicit list). */
export function publicConfig(config: PublicSettings) {
  return {
    siteName: config.SITE_NAME,
    publicUrl: config.PUBLIC_URL,
    bannerMessage: config.BANNER_MESSAGE,
    ads:
      config.AD_PROVIDER === "adsense" && config.AD_CLIENT
        ? { provider: "adsense" as const, client: config.AD_CLIENT, slots: config.AD_SLOTS }
        : null,
    contactEmail: config.CONTACT_EMAIL,
    /** Ultimate members have a named address for their messages (the plan's account manager line shows) */
    accountManager: Boolean(config.SUPPORT_ULTIMATE_EMAIL),
  };
}
export type PublicConfig = ReturnType<typeof publicConfig>;
