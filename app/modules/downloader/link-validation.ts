import { LINK_MESSAGES, parseLink, parsePlaylistLink, SITE_NAMES, type LinkError } from "#common/links.ts";

export type LinkCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * The form's wording for a refused link: the spec's "Please enter a valid YouTube URL" for a
 * YouTube link without a usable id, the platform's name for a recognised platform's non-video
 * link ("Please enter a valid Facebook video link"), "Please enter a valid video link" otherwise.
 */
function refusal(parsed: LinkError): string {
  return parsed.code === "link.no_id" ? LINK_MESSAGES["link.invalid"] : parsed.message;
}

/**
 * Spec §5 for the form: while typing, a non-empty invalid value shows a message and disables
 * Download; an empty value is only reported on submit. YouTube links of every accepted form,
 * the other recognised platforms' video links and generic http(s) media links are valid, exactly
 * as the server parses them; so are playlist links (a YouTube `list=`, another platform's playlist
 * page), which resolve to the playlist's videos. `platform` names a recognised platform other than
 * YouTube for the form to show.
 */
export function checkLinkWhileTyping(value: string): { message: string | null; canSubmit: boolean; platform: string | null } {
  if (value.trim() === "") return { message: null, canSubmit: true, platform: null };
  const playlist = parsePlaylistLink(value);
  if (playlist) return { message: null, canSubmit: true, platform: playlist.kind === "site" ? SITE_NAMES[playlist.site] : null };
  const parsed = parseLink(value);
  return parsed.ok ? { message: null, canSubmit: true, platform: parsed.kind === "site" ? SITE_NAMES[parsed.site] : null } : { message: refusal(parsed), canSubmit: false, platform: null };
}

export function checkLinkOnSubmit(value: string): LinkCheck {
  if (value.trim() === "") return { ok: false, message: LINK_MESSAGES["link.empty"] };
  if (parsePlaylistLink(value)) return { ok: true, url: value.trim() };
  const parsed = parseLink(value);
  if (!parsed.ok) return { ok: false, message: parsed.code === "link.no_id" ? LINK_MESSAGES["link.no_id"] : refusal(parsed) };
  return { ok: true, url: value.trim() };
}
