import { ImageOff } from "#app/components/icons.ts";
import { useEffect, useRef, useState } from "react";
import type { VideoDetails } from "#engine/types.ts";
import { EMBED_LISTENING, embedNow, embedWithApi, publishPlayerClock, readEmbedMessage, type EmbedTime } from "../player-clock.ts";

/** Spec §4: a loading placeholder for 1 s after a new video id, then the player. */
export const PLAYER_PLACEHOLDER_MS = 1000;

type GenericKind = "file" | "hls" | "dash";

function genericKind(url: string): GenericKind {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    // The link was validated before; keep the raw text for the extension check.
  }
  if (/\.m3u8$/i.test(path)) return "hls";
  if (/\.mpd$/i.test(path)) return "dash";
  return "file";
}

function Poster({ video, note }: { video: VideoDetails; note: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <div className="relative size-full bg-slate-900">
      {video.thumbnail && !broken ? (
        <img src={video.thumbnail} alt={`Thumbnail of ${video.title}`} onError={() => setBroken(true)} className="size-full object-cover opacity-80" />
      ) : (
        <div className="flex size-full items-center justify-center text-slate-400">
          <ImageOff aria-hidden className="size-10" />
        </div>
      )}
      <p className="absolute inset-x-0 bottom-0 bg-slate-900/80 px-3 py-2 text-center text-sm text-white">{note}</p>
    </div>
  );
}

/** Why there is no preview, in words a visitor can act on; the download never depends on it. */
export function noPreviewReason(kind: GenericKind, failed: boolean, url: string): string {
  const works = "The download below works: our server fetches the file.";
  if (kind === "dash") return `Browsers cannot play a DASH stream without a player library, so there is no preview here. ${works}`;
  if (!failed) return `This browser cannot play HLS streams on its own, so there is no preview here. ${works}`;
  let host = "its site";
  try {
    host = new URL(url).hostname;
  } catch {
    // keep the generic wording
  }
  return `The preview could not be loaded from ${host}: your browser could not reach it or cannot play its format. ${works}`;
}

/**
 * The no-cookie embed for YouTube, a native <video> for generic media. HLS plays natively where the
 * browser supports it; elsewhere (and for DASH) the poster stands in: loading a player library
 * would cost more page weight than a preview is worth, and the download works either way. A
 * playing <video> tells the clip fields its time (player-clock.ts).
 */
function GenericPlayer({ video }: { video: VideoDetails }) {
  const kind = genericKind(video.downloadUrl);
  const [playable, setPlayable] = useState<boolean | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (kind === "file") return setPlayable(true);
    if (kind === "dash") return setPlayable(false);
    const probe = document.createElement("video");
    setPlayable(probe.canPlayType("application/vnd.apple.mpegurl") !== "");
  }, [kind]);

  const player = useRef<HTMLVideoElement>(null);
  const [telling, setTelling] = useState(false);
  // once it knows its length, the element tells its time: "Start here" and "End here" read it
  useEffect(() => {
    const element = player.current;
    if (!telling || failed || !element) return;
    return publishPlayerClock({ now: () => element.currentTime });
  }, [telling, failed]);

  if (playable === null) return null;
  if (!playable || failed) return <Poster video={video} note={noPreviewReason(kind, failed, video.downloadUrl)} />;
  return (
    <video
      ref={player}
      onLoadedMetadata={() => setTelling(true)}
      controls
      preload="metadata"
      playsInline
      poster={video.thumbnail || undefined}
      src={video.downloadUrl}
      onError={() => setFailed(true)}
      className="size-full bg-black"
      aria-label={`Preview of ${video.title}`}
    />
  );
}

/** How often the page asks a YouTube embed to report before it answers, and for how long at most. */
const LISTEN_EVERY_MS = 250;
const LISTEN_TRIES = 40;

/**
 * The no-cookie embed with its JS API on: once the player answers our "listening" (from its own
 * origin and window only), its reported time is the page's player clock. An embed that never
 * answers (the API off, a blocked frame) publishes nothing.
 */
function YouTubeEmbed({ video, embedUrl }: { video: VideoDetails; embedUrl: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // the page's origin is known in the browser only: the embed renders after the placeholder, client-side
  const [api] = useState(() => (typeof window === "undefined" ? null : embedWithApi(embedUrl, window.location.origin)));
  const [loaded, setLoaded] = useState(0);

  useEffect(() => {
    const target = frame.current?.contentWindow;
    if (!api || !loaded || !target) return;
    let last: EmbedTime | null = null;
    let reportedAt = 0;
    let unpublish: (() => void) | null = null;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== api.origin || event.source !== target) return;
      const read = readEmbedMessage(event.data, last);
      if (read === null) return;
      clearInterval(asking);
      if (read !== "ready") {
        last = read;
        reportedAt = performance.now();
      }
      unpublish ??= publishPlayerClock({ now: () => (last ? embedNow(last, reportedAt, performance.now()) : null) });
    };
    window.addEventListener("message", onMessage);
    let tries = 0;
    const ask = () => {
      if (tries++ >= LISTEN_TRIES) clearInterval(asking);
      else target.postMessage(EMBED_LISTENING, api.origin);
    };
    const asking = setInterval(ask, LISTEN_EVERY_MS);
    ask();
    return () => {
      clearInterval(asking);
      window.removeEventListener("message", onMessage);
      unpublish?.();
    };
  }, [api, loaded]);

  return (
    <iframe
      ref={frame}
      src={api?.src ?? embedUrl}
      onLoad={() => setLoaded((n) => n + 1)}
      title={`YouTube video player: ${video.title}`}
      loading="lazy"
      allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
      referrerPolicy="strict-origin-when-cross-origin"
      allowFullScreen
      className="absolute inset-0 size-full border-0"
    />
  );
}

export function VideoPlayer({ video }: { video: VideoDetails }) {
  const [ready, setReady] = useState(false);

  useEffect(() => {
    setReady(false);
    const t = setTimeout(() => setReady(true), PLAYER_PLACEHOLDER_MS);
    return () => clearTimeout(t);
  }, [video.id]);

  return (
    // The box has its final size from the first paint (16:9), so nothing moves when the player arrives.
    <div className="relative aspect-video w-full overflow-hidden rounded-lg bg-slate-200" data-testid="video-player">
      {!ready ? (
        <div className="absolute inset-0 animate-pulse bg-slate-200" role="status" aria-label="Loading player" />
      ) : video.platform === "youtube" && video.embedUrl ? (
        <YouTubeEmbed key={video.embedUrl} video={video} embedUrl={video.embedUrl} />
      ) : (
        <GenericPlayer video={video} />
      )}
    </div>
  );
}
