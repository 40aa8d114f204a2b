import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import type { PlaylistAnswer, PlaylistEntryAnswer } from "../api-client.ts";
import { useZipDownload, type ZipDownload } from "../hooks/use-zip-download.ts";
import type { PlaylistPlan } from "../downloader-offer.ts";
import { defaultFormatOf, FormatSelect } from "./format-select.tsx";
import { FileState, ZipProgressSummary } from "./zip-progress.tsx";

/** Seconds as a clock: "0:06", "4:05", "1:02:03". */
export function clockOf(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

const videos = (n: number) => `${n} ${n === 1 ? "video" : "videos"}`;

/** "3 videos", or how many the card lists when the platform holds more than were listed. */
export function playlistCountText(playlist: Pick<PlaylistAnswer, "total" | "entries">): string {
  const listed = playlist.entries.length;
  const total = playlist.total ?? listed;
  return total > listed ? `${videos(total)}; only the first ${listed} are shown` : videos(listed);
}

/** What "Download ZIP" posts: the checked entries' links in the playlist's order, the format, the playlist's title as the ZIP's name. */
export function zipRequestOf(playlist: Pick<PlaylistAnswer, "title" | "entries">, checked: boolean[], format: string): { urls: string[]; format: string; name: string } {
  return { urls: playlist.entries.filter((_: PlaylistEntryAnswer, i) => checked[i]).map((e) => e.url), format, name: playlist.title };
}

/** "2 of 3 selected", and the plan's limit once the selection is over it. */
export function selectionText(checked: boolean[], maxLinks: number): { text: string; over: boolean } {
  const selected = checked.filter(Boolean).length;
  const over = selected > maxLinks;
  return { text: `${selected} of ${checked.length} selected${over ? ` (a ZIP takes at most ${maxLinks})` : ""}`, over };
}

export interface PlaylistPickerProps {
  playlist: PlaylistAnswer;
  /** what the viewer's plan offers (the server decides it) */
  plan: PlaylistPlan;
  /** load one entry into the single-video flow, as if its link were pasted */
  onPickVideo: (url: string) => void;
}

function EntryThumbnail({ src }: { src: string | null }) {
  const [broken, setBroken] = useState(false);
  if (!src || broken) return <span aria-hidden className="h-[54px] w-24 shrink-0 rounded bg-slate-200" />;
  return <img src={src} alt="" width={96} height={54} loading="lazy" onError={() => setBroken(true)} className="h-[54px] w-24 shrink-0 rounded bg-slate-200 object-cover" />;
}

/**
 * The playlist card (issue 30 §3): the playlist's videos, and for a plan with bulk downloads a
 * checkbox per video, one format and one ZIP of the checked ones, with each video's state while
 * the ZIP is built. Every plan can load a single video into the usual format list.
 */
export function PlaylistPicker({ playlist, plan, onPickVideo }: PlaylistPickerProps) {
  const ids = useId();
  const headingId = `${ids}-heading`;
  const { entries } = playlist;
  const [checked, setChecked] = useState<boolean[]>(() => entries.map(() => true));
  const [format, setFormat] = useState(() => defaultFormatOf(plan.formats));
  // the entries (by index) the running or last ZIP holds, in the order the progress events list them
  const [sent, setSent] = useState<number[] | null>(null);
  const { zip, start } = useZipDownload();
  const alertRef = useRef<HTMLParagraphElement>(null);
  const error = zip.phase === "failed" ? zip.error : null;
  useEffect(() => {
    if (error) alertRef.current?.focus();
  }, [error]);

  const selected = checked.filter(Boolean).length;
  const selection = selectionText(checked, plan.maxLinks);
  const busy = zip.phase === "preparing" || zip.phase === "saving";

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (selected === 0 || busy) return;
    setSent(checked.flatMap((c, i) => (c ? [i] : [])));
    const body = zipRequestOf(playlist, checked, format);
    void start(body.urls, body.format, body.name);
  }

  const stateOf = (index: number) => {
    if (!sent || !zip.files) return null;
    const position = sent.indexOf(index);
    return position === -1 ? null : <FileState item={zip.files.items[position]} />;
  };

  const rows = (
    <ul className="divide-y divide-slate-200" aria-label={plan.canBulk ? undefined : "Videos in this playlist"}>
      {entries.map((entry, i) => {
        const boxId = `${ids}-entry-${i}`;
        return (
          <li key={`${i}-${entry.url}`} className="flex items-start gap-3 py-3" data-testid="playlist-entry">
            {plan.canBulk ? (
              <input
                id={boxId}
                type="checkbox"
                checked={checked[i] ?? false}
                onChange={(e) => setChecked((c) => c.map((v, j) => (j === i ? e.target.checked : v)))}
                className="mt-1 size-4 shrink-0 accent-brand-600"
              />
            ) : null}
            <EntryThumbnail src={entry.thumbnail} />
            <div className="grid min-w-0 flex-1 gap-0.5">
              {plan.canBulk ? (
                <label htmlFor={boxId} className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                  {entry.title}
                </label>
              ) : (
                <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{entry.title}</p>
              )}
              <p className="flex flex-wrap gap-x-3 text-sm text-slate-600">
                {entry.duration !== null ? (
                  <span>
                    <span className="sr-only">Duration </span>
                    {clockOf(entry.duration)}
                  </span>
                ) : null}
                {stateOf(i)}
              </p>
              <div>
                <Button type="button" variant="link" size="sm" className="h-auto px-0 py-0.5" aria-label={`Download this video: ${entry.title}`} onClick={() => onPickVideo(entry.url)}>
                  Download this video
                </Button>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );

  return (
    <section aria-labelledby={headingId} className="mt-8 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="playlist-card">
      <p className="text-sm font-medium text-brand-700">Playlist</p>
      <h2 id={headingId} className="text-xl leading-snug font-semibold text-slate-900 [overflow-wrap:anywhere]">
        {playlist.title}
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="playlist-count">
        {playlistCountText(playlist)}
      </p>
      {plan.canBulk ? (
        <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4">
          <fieldset className="min-w-0">
            <legend className="font-medium text-slate-900">Videos in the ZIP</legend>
            <div className="mt-2 flex flex-wrap items-center gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setChecked(entries.map(() => true))}>
                Select all
              </Button>
              <Button type="button" variant="outline" size="sm" onClick={() => setChecked(entries.map(() => false))}>
                Select none
              </Button>
              <p aria-live="polite" data-testid="playlist-selected" className={`text-sm ${selection.over ? "font-medium text-red-700" : "text-slate-700"}`}>
                {selection.text}
              </p>
            </div>
            {rows}
          </fieldset>
          <FormatSelect id={`${ids}-format`} value={format} onChange={setFormat} formats={plan.formats} />
          {error ? (
            <p ref={alertRef} tabIndex={-1} role="alert" className="text-sm text-red-700 [overflow-wrap:anywhere] focus:outline-none">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={busy || selected === 0}>
              {zip.phase === "preparing" ? "Preparing..." : "Download ZIP"}
            </Button>
            {selected === 0 ? <p className="text-sm text-slate-700">Pick at least one video.</p> : null}
          </div>
          <ZipNote zip={zip} />
        </form>
      ) : (
        <>
          <div className="mt-4 rounded-lg border border-dashed border-slate-300 p-4">
            <p className="font-medium text-slate-900">Downloading a playlist as one ZIP comes with the Ultimate plan.</p>
            <Link to="/premium" className="mt-1 inline-block text-sm font-medium text-brand-700 underline">
              See the plans
            </Link>
          </div>
          <div className="mt-2">{rows}</div>
        </>
      )}
    </section>
  );
}

/** While and after the ZIP is saved: its name, the files so far and the bytes. */
function ZipNote({ zip }: { zip: ZipDownload }) {
  if (!zip.filename) return null;
  const sentence =
    zip.phase === "saving" || zip.untracked
      ? `Your browser is saving ${zip.filename}. The videos are added to it one after another.`
      : zip.phase === "done"
        ? `${zip.filename} is complete.`
        : null;
  return (
    <div className="grid gap-1">
      {sentence ? <p className="text-sm text-slate-700 [overflow-wrap:anywhere]">{sentence}</p> : null}
      <ZipProgressSummary zip={zip} />
    </div>
  );
}
