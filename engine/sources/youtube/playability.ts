/**
 * Maps an InnerTube player response's `playabilityStatus` (raw JSON, as YouTube sends it) to one
 * of our error codes. Written against the recorded responses in ../shared/fixtures/youtube
 * (NewPipe "notavailable" mocks, youtube-transcript-api assets, Invidious mocks).
 *
 * The decision is split in two: `final` errors describe the video itself (private, removed,
 * region, members…) and end the resolve; `retryable` ones (bot wall, age gate, unknown login
 * wall, and "not found": VISIONOS answers ERROR for made-for-kids videos that exist) may pass
 * with another InnerTube client, so the adapter tries the next one first.
 */
import type { EngineErrorCode } from "../../errors.ts";

export interface PlayabilityVerdict {
  code: EngineErrorCode;
  /** true when another client might get a different answer */
  retryable: boolean;
  /** YouTube's own reason, for logs */
  reason: string;
  /** false when YouTube says the embedded player may not play it either (`playableInEmbed: false`) */
  embeddable: boolean;
}

type Json = Record<string, unknown>;

function obj(value: unknown): Json | undefined {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

/** `{"playerResponse": …}` (reel_item_watch) and plain `/player` bodies look the same afterwards. */
export function unwrapPlayerResponse(body: unknown): Json {
  const root = obj(body) ?? {};
  return obj(root.playerResponse) ?? root;
}

function textOf(value: unknown): string {
  const o = obj(value);
  if (!o) return typeof value === "string" ? value : "";
  if (typeof o.simpleText === "string") return o.simpleText;
  if (Array.isArray(o.runs)) return o.runs.map((r) => (typeof obj(r)?.text === "string" ? (obj(r)!.text as string) : "")).join("");
  return "";
}

/** All human text YouTube put into the status: reason, messages, error screen. */
function reasonText(status: Json): string {
  const parts: string[] = [];
  if (typeof status.reason === "string") parts.push(status.reason);
  if (Array.isArray(status.messages)) parts.push(...status.messages.filter((m): m is string => typeof m === "string"));
  const screen = obj(status.errorScreen);
  const pem = obj(screen?.playerErrorMessageRenderer);
  if (pem) parts.push(textOf(pem.reason), textOf(pem.subreason));
  const dialog = obj(screen?.confirmDialogRenderer);
  if (dialog) {
    parts.push(textOf(dialog.title));
    if (Array.isArray(dialog.dialogMessages)) parts.push(...dialog.dialogMessages.map(textOf));
  }
  if (typeof status.reasonTitle === "string") parts.push(status.reasonTitle);
  // YouTube writes a typographic apostrophe ("you’re"); normalise so matching is simple.
  return parts.filter(Boolean).join(" | ").replace(/[\u2018\u2019]/g, "'");
}

/**
 * null when the response is playable (status OK and not live/upcoming); otherwise the verdict.
 * A body without `playabilityStatus` (YouTube answers `{}` for ids that never existed) is "not found".
 */
export function classifyPlayability(body: unknown): PlayabilityVerdict | null {
  const player = unwrapPlayerResponse(body);
  const status = obj(player.playabilityStatus);
  // retryable: one client's empty answer is not yet every client's
  if (!status) return { code: "video.not_found", retryable: true, reason: "empty player response", embeddable: true };
  const kind = typeof status.status === "string" ? status.status : "";
  const reason = reasonText(status);
  const lower = reason.toLowerCase();
  const details = obj(player.videoDetails);

  const embeddable = status.playableInEmbed !== false;
  const verdict = (code: EngineErrorCode, retryable = false): PlayabilityVerdict => ({ code, retryable, reason: reason || kind, embeddable });

  if (kind === "OK") {
    if (details?.isUpcoming === true) return verdict("video.upcoming");
    if (details?.isLive === true || details?.isPostLiveDvr === true) return verdict("video.live");
    return null;
  }
  if (/not a bot|unusual traffic|automated queries/.test(lower)) return verdict("video.bot_check", true);
  if (kind === "LIVE_STREAM_OFFLINE") {
    // A scheduled stream or premiere that has not started; an ended stream still processing
    // says so in the reason and is simply unavailable for now.
    const slate = obj(obj(obj(status.liveStreamability)?.liveStreamabilityRenderer)?.offlineSlate);
    if (slate || details?.isUpcoming === true || /will begin|premiere|scheduled|live in/.test(lower)) return verdict("video.upcoming");
    return verdict("video.unavailable");
  }
  if (kind === "LIVE_STREAM") return verdict("video.live");
  if (/private/.test(lower)) return verdict("video.private");
  if (/music premium/.test(lower)) return verdict("video.music_premium");
  if (/members|membership|join this channel/.test(lower)) return verdict("video.members_only");
  if (/country|region|your location/.test(lower)) return verdict("video.region_blocked");
  if (/\b(purchase|rent|rental|buy|payment|paid)\b/.test(lower)) return verdict("video.paid");
  if (
    kind === "AGE_CHECK_REQUIRED" ||
    kind === "AGE_VERIFICATION_REQUIRED" ||
    kind === "CONTENT_CHECK_REQUIRED" ||
    status.desktopLegacyAgeGateReason !== undefined ||
    /inappropriate|confirm your age|age-restricted|age restricted/.test(lower)
  ) {
    // Some clients (embedded/TV) are let through age gates; try the others before giving up.
    return verdict("video.age_restricted", true);
  }
  if (kind === "ERROR") {
    // YouTube answers ERROR "This video is unavailable" for ids that do not exist, and names
    // removals ("removed", "terminated", "no longer available") explicitly. VISIONOS answers the
    // same ERROR for made-for-kids videos it cannot play, so "not found" waits for the others.
    if (/removed|terminated|no longer available|copyright claim|violat/.test(lower)) return verdict("video.unavailable");
    return verdict("video.not_found", true);
  }
  return verdict("video.unavailable", true);
}
