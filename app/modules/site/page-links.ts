/**
 * The header's links and the Tools dropdown (spec §2 "Header", plus the blog and the plans: a
 * visitor found neither from the header or the footer).
 */
export const HEADER_LINKS = [
  { to: "/", label: "Home" },
  { to: "/how-to-download", label: "How to Download" },
  { to: "/supported-sites", label: "Supported Sites" },
  { to: "/blog", label: "Blog" },
  { to: "/premium", label: "Premium" },
  { to: "/faq", label: "FAQ" },
  { to: "/about-us", label: "About Us" },
  { to: "/contact-us", label: "Contact Us" },
] as const;

export const TOOLS_LINKS = [
  { to: "/tools/converters", label: "Video Converters" },
  { to: "/tools/colors", label: "Color Picker" },
  { to: "/tools/text", label: "Text Tools" },
  { to: "/tools/media", label: "Media Tools" },
] as const;

/** Active by path prefix; Home only on "/" itself. */
export function isActivePath(current: string, to: string): boolean {
  if (to === "/") return current === "/";
  return current === to || current.startsWith(to + "/");
}
