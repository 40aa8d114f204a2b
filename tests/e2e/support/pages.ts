/** The information pages the foundation serves (every e2e check that walks them uses this list). */
export const INFO_PAGES = [
  "/how-to-download",
  "/supported-sites",
  "/faq",
  "/about-us",
  "/contact-us",
  "/privacy-policy",
  "/terms-and-conditions",
  "/disclaimer",
  "/dmca",
  "/sitemap",
  "/connection-status",
] as const;
