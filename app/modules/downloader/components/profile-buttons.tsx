import { Check, CircleX, Download, LoaderCircle } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/cn.ts";
import { profileKey, type ActiveDownload, type FinalFailure } from "../hooks/use-format-downloads.ts";
import type { DownloadProfileChoice } from "../downloader-offer.ts";
import { MAX_ATTEMPTS } from "../retry.ts";
import { DownloadProgressBar } from "./download-progress.tsx";

/**
 * "Your profiles" above the format list (issue 31 §2): one button a profile, which downloads the
 * video with the profile's format, subtitle language and file name. Offline, a profile cannot
 * be queued (the queue keeps a format only): the buttons wait for the connection.
 */
export function ProfileButtons({
  profiles,
  formatLabel,
  active,
  failure,
  offline,
  onDownload,
}: {
  profiles: DownloadProfileChoice[];
  formatLabel: (format: string) => string;
  active: ActiveDownload | null;
  failure: FinalFailure | null;
  offline: boolean;
  onDownload: (profile: DownloadProfileChoice) => void;
}) {
  const busy = active?.phase === "downloading";
  return (
    <section aria-labelledby="profiles-row-heading" className="mt-3 rounded-lg border border-slate-200 p-3" data-testid="profile-buttons">
      <h3 id="profiles-row-heading" className="text-sm font-semibold text-slate-900">
        Your profiles
      </h3>
      {offline ? <p className="mt-1 text-sm text-slate-600">Profiles need a connection: they are not queued.</p> : null}
      <ul className="mt-2 grid gap-2">
        {profiles.map((profile) => {
          const mine = active?.formatId === profileKey(profile.id) ? active : null;
          const state = mine ? mine.phase : "idle";
          const failed = failure?.formatId === profileKey(profile.id) ? failure.message : null;
          return (
            <li key={profile.id} data-testid={`profile-${profile.id}`}>
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <Button
                  type="button"
                  size="sm"
                  variant={state === "error" ? "destructive" : state === "success" ? "success" : "outline"}
                  onClick={() => onDownload(profile)}
                  disabled={offline || (busy && !mine)}
                  aria-disabled={state === "downloading" ? true : undefined}
                  data-state={state}
                  className={cn("max-w-full", state === "downloading" && "pointer-events-none")}
                >
                  {state === "downloading" ? (
                    <LoaderCircle aria-hidden className="animate-spin" />
                  ) : state === "success" ? (
                    <Check aria-hidden className="text-emerald-600" />
                  ) : state === "error" ? (
                    <CircleX aria-hidden />
                  ) : (
                    <Download aria-hidden />
                  )}
                  <span className="truncate">
                    {state === "downloading" && mine && mine.attempt > 1 ? `Retrying (${mine.attempt}/${MAX_ATTEMPTS}) ` : null}
                    Download with {profile.name}
                  </span>
                </Button>
                <span className="text-sm text-slate-600">{formatLabel(profile.format)}</span>
              </div>
              {failed ? (
                <p role="alert" className="mt-1 text-sm font-medium text-destructive" data-testid="profile-error">
                  {failed}
                </p>
              ) : null}
              {mine && (mine.phase === "downloading" || mine.phase === "success") ? (
                <div className="mt-2">
                  <DownloadProgressBar active={mine} />
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
