/** The /sitemap page's groups (spec §2 "Static pages": Main, Company, Legal, six blog links) plus the tools pages. */
export interface SitemapLink {
  to: string;
  label: string;
}

export const SITEMAP_GROUPS: { id: string; title: string; links: SitemapLink[] }[] = [
  {
    id: "main",
    title: "Main",
    links: [
      { to: "/", label: "Home" },
      { to: "/blog", label: "Blog" },
      { to: "/how-to-download", label: "How to Download" },
      { to: "/supported-sites", label: "Supported Sites" },
      { to: "/faq", label: "FAQ" },
    ],
  },
  {
    id: "tools",
    title: "Tools",
    // the header's Tools menu order and labels (a copy, not an import: sharing nav-links.ts
    // with this route would split it out of the root chunk and grow the home page's first load)
    links: [
      { to: "/tools/converters", label: "Video Converters" },
      { to: "/tools/colors", label: "Color Picker" },
      { to: "/tools/text", label: "Text Tools" },
      { to: "/tools/media", label: "Media Tools" },
    ],
  },
  {
    id: "company",
    title: "Company",
    links: [
      { to: "/about-us", label: "About Us" },
      { to: "/contact-us", label: "Contact Us" },
    ],
  },
  {
    id: "legal",
    title: "Legal",
    links: [
      { to: "/privacy-policy", label: "Privacy Policy" },
      { to: "/terms-and-conditions", label: "Terms and Conditions" },
      { to: "/disclaimer", label: "Disclaimer" },
      { to: "/dmca", label: "DMCA" },
    ],
  },
];

export const SITEMAP_BLOG_SLUGS = [
  "how-to-download-youtube-videos-safely",
  "best-free-youtube-to-mp3-converters",
  "understanding-youtube-terms-of-service",
  "download-youtube-videos-on-mobile",
  "improve-video-quality-when-downloading",
  "youtube-download-copyright-guidelines",
] as const;

const UPPER = new Map([
  ["youtube", "YouTube"],
  ["mp3", "MP3"],
  ["mp4", "MP4"],
]);
const SMALL = new Set(["to", "of", "on", "and", "when", "the", "a"]);

/** A readable title from an article slug ("best-free-youtube-to-mp3-converters" → "Best Free YouTube to MP3 Converters"). */
export function titleFromSlug(slug: string): string {
  return slug
    .split("-")
    .map((w, i) => UPPER.get(w) ?? (i > 0 && SMALL.has(w) ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
}
