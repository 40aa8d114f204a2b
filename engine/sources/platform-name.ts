import { SITE_NAMES, type ParsedLink } from "#common/links.ts";

/** The platform a visitor would name for a link: "YouTube", "Facebook", or the host of a media link. */
export function platformNameOf(link: ParsedLink): string {
  if (link.kind === "youtube") return "YouTube";
  if (link.kind === "site") return SITE_NAMES[link.site];
  return new URL(link.url).hostname;
}
