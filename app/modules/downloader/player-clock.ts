/**
 * The preview player's current time, for the clip's "Start here" and "End here" (issue 33 §1):
 * the player (components/video-player.tsx) publishes a clock once it can tell its time, the clip
 * fields read it. A `<video>` element tells its `currentTime`; YouTube's embed tells it over
 * postMessage once asked to (its IFrame Player API with `enablejsapi=1`: we send "listening", it
 * answers with `infoDelivery` messages carrying `currentTime`), read here without YouTube's script.
 * A player that cannot tell (a poster, an embed without the API) publishes nothing, and the
 * buttons are not shown. One player per page: the last one published is the one read.
 */
import { useSyncExternalStore } from "react";

export interface PlayerClock {
  /** seconds into the video the player shows now, or null when it cannot say */
  now(): number | null;
}

let current: PlayerClock | null = null;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Makes `clock` the page's player clock; the returned function takes it back (only if it is still the one). */
export function publishPlayerClock(clock: PlayerClock): () => void {
  current = clock;
  notify();
  return () => {
    if (current !== clock) return;
    current = null;
    notify();
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => current;

/** The page's player clock, or null while no player can tell its time. */
export function usePlayerClock(): PlayerClock | null {
  // the server never has one (players publish from effects); the same read keeps hydration in step
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** What YouTube's player said last: the time, and whether it was playing (then the time runs on). */
export interface EmbedTime {
  currentTime: number;
  playing: boolean;
}

/** YouTube's playerState for "playing" (the IFrame API's YT.PlayerState.PLAYING). */
const PLAYING = 1;

/**
 * A message from YouTube's embed, as far as its time goes: `initialDelivery`/`infoDelivery` with an
 * `info` object (JSON text, as the player posts it). `known` carries on what an update leaves out
 * (an `infoDelivery` names only what changed). Null for anything else, including another sender's
 * messages that happen to parse.
 */
export function readEmbedMessage(data: unknown, known: EmbedTime | null): EmbedTime | "ready" | null {
  let message: unknown = data;
  if (typeof data === "string") {
    try {
      message = JSON.parse(data);
    } catch {
      return null;
    }
  }
  if (typeof message !== "object" || message === null) return null;
  const { event, info } = message as { event?: unknown; info?: unknown };
  if (event === "onReady") return "ready";
  if (event !== "initialDelivery" && event !== "infoDelivery") return null;
  if (typeof info !== "object" || info === null) return known ?? "ready";
  const { currentTime, playerState } = info as { currentTime?: unknown; playerState?: unknown };
  const time = typeof currentTime === "number" && Number.isFinite(currentTime) && currentTime >= 0 ? currentTime : known?.currentTime;
  if (time === undefined) return known ?? "ready";
  return { currentTime: time, playing: typeof playerState === "number" ? playerState === PLAYING : (known?.playing ?? false) };
}

/** Where a playing embed is by now: its last report plus the time since (it reports a few times a second). */
export function embedNow(last: EmbedTime, reportedAtMs: number, nowMs: number): number {
  return last.playing ? last.currentTime + Math.max(0, nowMs - reportedAtMs) / 1000 : last.currentTime;
}

/** The message that asks YouTube's embed to report to this page (what its IFrame API script sends). */
export const EMBED_LISTENING = JSON.stringify({ event: "listening", id: "vidfetch-player", channel: "widget" });

/**
 * The embed's address with its JS API turned on for this page: `enablejsapi=1` and our `origin`
 * (the player posts only to it). Null for an address that is not a URL.
 */
export function embedWithApi(embedUrl: string, pageOrigin: string): { src: string; origin: string } | null {
  try {
    const url = new URL(embedUrl);
    url.searchParams.set("enablejsapi", "1");
    url.searchParams.set("origin", pageOrigin);
    return { src: url.toString(), origin: url.origin };
  } catch {
    return null;
  }
}
