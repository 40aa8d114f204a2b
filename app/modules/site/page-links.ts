/**
 * The site's links in one place: each page's link label once, and the lists that link to it
 * (the header, its Tools menu, the footer's groups; the /sitemap page's groups are built from
 * them in sitemap-groups.server.ts). The layout ships this file in every page's first load, so
 * it holds labels and paths only: titles, descriptions and sitemap.xml hints live in pages.ts,
 * which the pages' meta read. page-registry.test.ts fails when a route is missing from either,
 * or from these lists.
 */
const LABELS = {
  "/": "Home",
  "/how-to-download": "How to Download",
  "/supported-sites": "Supported Sites",
  "/blog": "Blog",
  "/premium": "Premium",
  "/faq": "FAQ",
  "/about-us": "About Us",
  "/contact-us": "Contact Us",
  "/sitemap": "Sitemap",
  "/tools/converters": "Video Converters",
  "/tools/colors": "Color Picker",
  "/tools/text": "Text Tools",
  "/tools/media": "Media Tools",
  "/privacy-policy": "Privacy Policy",
  "/terms-and-conditions": "Terms and Conditions",
  "/disclaimer": "Disclaimer",
  "/dmca": "DMCA",
} as const;

export type LinkedPath = keyof typeof LABELS;

export interface PageLink {
  to: LinkedPath;
  label: string;
}

/** The links to these pages, with their labels. */
export const links = (...paths: LinkedPath[]): PageLink[] => paths.map((to) => ({ to, label: LABELS[to] }));

/** The header's links (spec §2 "Header", plus the blog and the plans: a visitor found neither from the header or the footer). */
export const HEADER_LINKS = links("/", "/how-to-download", "/supported-sites", "/blog", "/premium", "/faq", "/about-us", "/contact-us");

/** The header's Tools dropdown; the footer and the /sitemap page list the tools the same way. */
export const TOOLS_LINKS = links("/tools/converters", "/tools/colors", "/tools/text", "/tools/media");

export const LEGAL_LINKS = links("/privacy-policy", "/terms-and-conditions", "/disclaimer", "/dmca");

/** The footer's groups (spec §2 "Footer"). */
export const FOOTER_GROUPS: { heading: string; links: PageLink[] }[] = [
  { heading: "Company", links: [...links("/about-us", "/contact-us", "/blog"), { to: "/premium", label: "Premium Plans" }, ...links("/sitemap")] },
  { heading: "Help", links: links("/how-to-download", "/supported-sites", "/faq") },
  { heading: "Tools", links: TOOLS_LINKS },
  { heading: "Legal", links: LEGAL_LINKS },
];

/** Active by path prefix; Home only on "/" itself. */
export function isActivePath(current: string, to: string): boolean {
  if (to === "/") return current === "/";
  return current === to || current.startsWith(to + "/");
}
