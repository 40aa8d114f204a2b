/**
 * The non-default path for clients whose formats carry a `signatureCipher` (WEB family): fetch
 * YouTube's player script through our outbound fetch (youtubei.js finds the player id in
 * `/iframe_api` and extracts the decipher code), ask for the player again with the script's
 * signature timestamp (ciphers are tied to the script version), then decipher each format's URL
 * in the sandbox (sandbox-eval.ts). See docs/decisions/002-youtube-clients.md.
 */
import { Player } from "youtubei.js";
import type { OutboundFetch } from "../../outbound/outbound-fetch.ts";
import { toYoutubeiFetch } from "./innertube.ts";
import { installSandboxEvaluator } from "./sandbox-eval.ts";
import type { InnertubeFormat } from "./streams.ts";

/** Scripts change a few times a week; one per outbound fetch (≈ per engine) is reused for an hour. */
const PLAYER_TTL_MS = 60 * 60 * 1000;
const players = new WeakMap<OutboundFetch, { at: number; player: Promise<Player> }>();

export function needsDecipher(format: InnertubeFormat): boolean {
  return Boolean(format.signature_cipher || format.cipher);
}

export function getPlayer(fetch: OutboundFetch, now = Date.now()): Promise<Player> {
  const cached = players.get(fetch);
  if (cached && now - cached.at < PLAYER_TTL_MS) return cached.player;
  installSandboxEvaluator();
  const player = Player.create(undefined, toYoutubeiFetch(fetch));
  players.set(fetch, { at: now, player });
  player.catch(() => players.delete(fetch));
  return player;
}

/** Format objects as youtubei.js parses them (with their own `decipher`). */
type DecipherableFormat = InnertubeFormat & { decipher(player?: Player): Promise<string> };

/** Replaces ciphered (and `n`-throttled) URLs with deciphered ones, in place. */
export async function decipherFormats(formats: DecipherableFormat[], player: Player): Promise<void> {
  for (const format of formats) {
    const throttled = typeof format.url === "string" && /[?&]n=/.test(format.url);
    if (!needsDecipher(format) && !throttled) continue;
    format.url = await format.decipher(player);
    format.signature_cipher = undefined;
    format.cipher = undefined;
  }
}
