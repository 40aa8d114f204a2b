import { ImageOff } from "#app/components/icons.ts";
import { useEffect, useState } from "react";
import type { VideoDetails } from "#engine/types.ts";

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
 * would cost more page weight than a preview is worth, and the download works either way.
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

  if (playable === null) return null;
  if (!playable || failed) return <Poster video={video} note={noPreviewReason(kind, failed, video.downloadUrl)} />;
  return (
    <video
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
        <iframe
          src={video.embedUrl}
          title={`YouTube video player: ${video.title}`}
          loading="lazy"
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
          className="absolute inset-0 size-full border-0"
        />
      ) : (
        <GenericPlayer video={video} />
      )}
    </div>
  );
}
