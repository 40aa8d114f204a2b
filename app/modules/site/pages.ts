/**
 * Every public page the site serves, in one list: the sitemap.xml, the site search, the 404
 * page's "most relevant page" and each page's metadata read from here. Later features add
 * their pages to this list (the blog adds its articles through its own search source); the
 * links to them are in page-links.ts, and page-registry.test.ts checks every route is in both.
 */
export interface SitePage {
  path: string;
  /** page title without the site name */
  title: string;
  description: string;
  /** extra words the site search should match */
  keywords: string[];
  group: "main" | "company" | "legal" | "tools" | "other";
  /** sitemap.xml hints */
  changefreq: "daily" | "weekly" | "monthly" | "yearly";
  priority: number;
  /** false: exists but is not listed in sitemaps or search (e.g. utility pages) */
  listed?: boolean;
}

export const SITE_PAGES: SitePage[] = [
  {
    path: "/",
    title: "Free Video Downloader for MP4, MP3, Thumbnails and Transcripts",
    description:
      "Paste a video link, preview it and save it as MP4 up to 1080p, MP3, AAC, M4A or WEBM, or grab the HD thumbnail or transcript. Free, no sign-up, nothing stored.",
    keywords: ["download", "youtube", "mp4", "mp3", "video downloader", "converter", "1080p", "audio", "thumbnail", "transcript"],
    group: "main",
    changefreq: "daily",
    priority: 1,
  },
  {
    path: "/shorts-downloader",
    title: "Shorts Downloader: Save Short Videos in HD",
    description:
      "Paste a Shorts link and save it as MP4 up to 1080p, or as MP3, M4A or AAC audio. Free, no sign-up, nothing stored on our servers.",
    keywords: ["shorts", "short video", "vertical video", "mp4", "mp3", "download shorts", "reels"],
    group: "main",
    changefreq: "monthly",
    priority: 0.8,
  },
  {
    path: "/how-to-download",
    title: "How to Download Videos: Step-by-Step Guide",
    description:
      "Five steps from finding a video to saving the file, seven tips for the best quality, and fixes for downloads that will not start, look blurry or run slowly.",
    keywords: ["guide", "tutorial", "steps", "copy url", "paste", "quality", "troubleshooting", "slow", "help"],
    group: "main",
    changefreq: "monthly",
    priority: 0.8,
  },
  {
    path: "/supported-sites",
    title: "Supported Sites and Platforms",
    description:
      "Which platforms work today, what formats and quality each one gets, what is coming next, and a form to ask for the platform you need.",
    // every platform id of common/links.ts (a test checks it; importing the table here would
    // split it out of the home page's chunk and grow its first load)
    keywords: ["platforms", "youtube", "facebook", "instagram", "tiktok", "twitter", "vimeo", "dailymotion", "twitch", "request"],
    group: "main",
    changefreq: "monthly",
    priority: 0.7,
  },
  {
    path: "/faq",
    title: "Frequently Asked Questions",
    description:
      "Answers about cost, legality, quality, formats, limits, storage, speed and safety: everything people ask before their first download.",
    keywords: ["faq", "questions", "free", "legal", "quality", "formats", "limits", "safe", "speed", "storage"],
    group: "main",
    changefreq: "monthly",
    priority: 0.7,
  },
  {
    path: "/tools/converters",
    title: "Video Converter: MP4, WEBM, MP3, M4A, WAV and GIF in Your Browser",
    description:
      "Convert a video or audio file to MP4, WEBM, MP3, M4A, WAV or an animated GIF or WebP, pick the resolution and quality, and save it. Runs in your browser: your file never leaves your device.",
    keywords: ["converter", "convert video", "mp4", "webm", "mp3", "m4a", "wav", "gif", "webp", "resolution", "tools"],
    group: "tools",
    changefreq: "monthly",
    priority: 0.7,
  },
  {
    path: "/tools/media",
    title: "Media Tools: Media Info, Trim, Frame Grab and Thumbnail Sheet",
    description:
      "See every stream of a video or audio file, cut a clip without re-encoding, save a frame as PNG or JPEG, or make a thumbnail sheet. Runs in your browser: your file never leaves your device.",
    keywords: ["media info", "codec", "trim", "cut", "clip", "frame grab", "screenshot", "thumbnail sheet", "contact sheet", "tools"],
    group: "tools",
    changefreq: "monthly",
    priority: 0.7,
  },
  {
    path: "/tools/colors",
    title: "Color Picker: HEX, RGB, HSL, OKLCH, CMYK and Contrast Checker",
    description:
      "Pick a colour from a palette, an image or your screen, copy it as HEX, RGB, HSL, HWB, OKLCH or CMYK, check WCAG contrast and build matching palettes.",
    keywords: ["color picker", "colour", "hex", "rgb", "hsl", "oklch", "cmyk", "contrast", "wcag", "palette", "eyedropper", "tools"],
    group: "tools",
    changefreq: "monthly",
    priority: 0.6,
  },
  {
    path: "/tools/text",
    title: "Text Tools: Word Counter, Case Converter, Find and Replace",
    description:
      "Count words, characters and reading time, change case, make slugs, find and replace with regular expressions, sort and dedupe lines, and make safe file names.",
    keywords: ["word counter", "character count", "case converter", "slug", "regex", "find and replace", "sort lines", "file name", "tools"],
    group: "tools",
    changefreq: "monthly",
    priority: 0.6,
  },
  {
    path: "/about-us",
    title: "About Us",
    description: "Why we built a downloader without fake buttons or malware ads, who we are, and what we promise the people who use it.",
    keywords: ["about", "mission", "team", "values", "company"],
    group: "company",
    changefreq: "yearly",
    priority: 0.5,
  },
  {
    path: "/contact-us",
    title: "Contact Us",
    description: "Questions, bug reports or copyright notices: send us a message and we reply within 24-48 hours.",
    keywords: ["contact", "support", "help", "email", "message", "report a problem", "bug"],
    group: "company",
    changefreq: "yearly",
    priority: 0.5,
  },
  {
    path: "/privacy-policy",
    title: "Privacy Policy",
    description: "What we collect (very little), why, how long we keep it, your rights under the GDPR and CCPA, and how to reach us.",
    keywords: ["privacy", "gdpr", "data", "cookies", "personal information", "rights"],
    group: "legal",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/terms-and-conditions",
    title: "Terms and Conditions",
    description: "The rules for using the service: personal use, accounts, subscriptions, fair use, copyright, liability and how these terms change.",
    keywords: ["terms", "conditions", "agreement", "rules", "subscription", "legal"],
    group: "legal",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/disclaimer",
    title: "Disclaimer",
    description: "What the service is and is not responsible for, fair use, external links and your responsibility for what you download.",
    keywords: ["disclaimer", "liability", "fair use", "responsibility", "legal"],
    group: "legal",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/dmca",
    title: "DMCA and Copyright Policy",
    description: "How rights holders send a takedown notice, how counter-notices work, fair use, and our repeat-infringer policy.",
    keywords: ["dmca", "copyright", "takedown", "counter notice", "infringement", "rights holder"],
    group: "legal",
    changefreq: "yearly",
    priority: 0.3,
  },
  {
    path: "/sitemap",
    title: "Sitemap",
    description: "Every page of the site in one place: the downloader, guides, company pages, legal pages and popular articles.",
    keywords: ["sitemap", "pages", "index", "all pages"],
    group: "other",
    changefreq: "monthly",
    priority: 0.2,
  },
  {
    path: "/connection-status",
    title: "Connection Status",
    description: "Check whether your device is online and can reach our servers, and when that was last checked.",
    keywords: ["offline", "online", "connection", "network", "status"],
    group: "other",
    changefreq: "yearly",
    priority: 0.1,
  },
];

/** Longest search query taken (longer input is cut). */
export const MAX_QUERY_LENGTH = 100;

export function findSitePage(path: string): SitePage | undefined {
  return SITE_PAGES.find((p) => p.path === path);
}
