import { LINK_MESSAGES, parseLink } from "../../../common/links.ts";

export type LinkCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * Spec §5 for the form: while typing, a non-empty invalid value reads "Please enter a valid YouTube
 * URL" (Download disabled); an empty value is only reported on submit. YouTube links of every
 * accepted form and generic http(s) media links are valid, exactly as the server parses them.
 */
export function checkLinkWhileTyping(value: string): { message: string | null; canSubmit: boolean } {
  if (value.trim() === "") return { message: null, canSubmit: true };
  const parsed = parseLink(value);
  return parsed.ok ? { message: null, canSubmit: true } : { message: LINK_MESSAGES["link.invalid"], canSubmit: false };
}

export function checkLinkOnSubmit(value: string): LinkCheck {
  if (value.trim() === "") return { ok: false, message: LINK_MESSAGES["link.empty"] };
  const parsed = parseLink(value);
  if (!parsed.ok) return { ok: false, message: parsed.code === "link.no_id" ? LINK_MESSAGES["link.no_id"] : LINK_MESSAGES["link.invalid"] };
  return { ok: true, url: value.trim() };
}
