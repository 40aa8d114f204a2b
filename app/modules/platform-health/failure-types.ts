/**
 * Operator words for the failure types the counts keep (the engine's error codes and the
 * ladder's `client.*` verdicts), for the /admin table. A type without words shows its code alone.
 */
const FAILURE_WORDS: Record<string, string> = {
  "video.bot_check": "bot wall",
  "video.age_restricted": "age gate",
  "video.region_blocked": "region",
  "video.login_required": "login wall",
  "video.not_found": "not found",
  "video.unavailable": "unavailable",
  "video.no_formats": "no formats",
  "client.needs_token": "token needed",
  "client.sabr_only": "SABR only",
  "upstream.refused": "refused (403)",
  "upstream.expired": "links expired",
  "upstream.timeout": "timeout",
  "upstream.fetch_failed": "unreachable",
  "upstream.api_error": "error answer",
  "upstream.too_large": "answer too large",
  "download.failed": "download failed",
  internal: "internal error",
};

export function failureWords(type: string): string | null {
  return FAILURE_WORDS[type] ?? null;
}

/** The client the canary's check of one egress counts under: the whole ladder in its order, no one client (decision 063). */
export const LADDER_CLIENT = "all";

/** A client as the /admin table names it. */
export function clientWords(client: string): string {
  return client === LADDER_CLIENT ? "all (the whole ladder: the canary's check of this egress)" : client;
}
