import { PlanUpgrade } from "./plan-upgrade.tsx";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Check } from "#app/components/icons.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { defaultFormatOf, FormatSelect, type FormatChoice } from "#app/modules/downloader/components/format-select.tsx";
import { ZipFileList } from "#app/modules/downloader/components/zip-progress.tsx";
import { useZipDownload } from "#app/modules/downloader/hooks/use-zip-download.ts";
import { ApiError, FRIENDLY_MESSAGES, requestBulkJob } from "#app/modules/downloader/api-client.ts";
import type { BulkView } from "./dashboard-data.ts";

/** The links in the textarea: one a line, blank lines and surrounding spaces ignored. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/** Why the links cannot be sent as they are, or null when they can (the API checks again). */
export function bulkInputProblem(links: string[], maxLinks: number): string | null {
  if (links.length === 0) return "Paste at least one link, one per line.";
  if (links.length > maxLinks) return `A bulk download takes at most ${maxLinks} links; this one has ${links.length}.`;
  return null;
}

/**
 * The user's download profiles beside the ZIP's format (issue 31 §2): one pressed button at a
 * time, None to pick the format by hand. Nothing is shown without profiles.
 */
export function BulkProfileChoice({
  profiles,
  formats,
  chosen,
  onChoose,
}: {
  profiles: BulkView["profiles"];
  formats: FormatChoice[];
  /** the chosen profile's id; null: None */
  chosen: string | null;
  onChoose: (id: string | null) => void;
}) {
  if (profiles.length === 0) return null;
  const labelOf = (format: string) => formats.find((f) => f.id === format)?.label ?? format;
  const picked = profiles.find((p) => p.id === chosen) ?? null;
  const choices = [{ id: null, name: "None", format: null }, ...profiles];
  return (
    <div role="group" aria-labelledby="bulk-profile-label" aria-describedby="bulk-profile-note" className="grid min-w-0 gap-2" data-testid="bulk-profiles">
      <span id="bulk-profile-label" className="text-sm font-medium text-slate-800">
        Profile
      </span>
      <div className="flex flex-wrap gap-2">
        {choices.map((choice) => {
          const pressed = choice.id === (picked?.id ?? null);
          return (
            <Button
              key={choice.id ?? "none"}
              type="button"
              size="sm"
              variant={pressed ? "default" : "outline"}
              aria-pressed={pressed}
              onClick={() => onChoose(choice.id)}
              data-testid={`bulk-profile-${choice.id ?? "none"}`}
              className="max-w-full"
            >
              {pressed ? <Check aria-hidden /> : null}
              <span className="truncate">{choice.name}</span>
              {choice.format ? <span className="font-normal opacity-80">{labelOf(choice.format)}</span> : null}
            </Button>
          );
        })}
      </div>
      <p id="bulk-profile-note" className="text-sm text-slate-600">
        {picked
          ? `Every file is downloaded with ${picked.name}: its format, subtitle language and file-name template.`
          : "Choose one of your profiles to use its format, subtitle language and file-name template for every file."}
      </p>
    </div>
  );
}

/**
 * The Bulk tab (issue 30 §3): up to the plan's number of links, one format, one ZIP. The
 * browser asks POST /api/v1/downloads for a signed link, then follows it, so the archive is
 * saved by the browser's download manager while the server builds it, and each link's state
 * follows from the download's progress events. Plans without bulk downloads see which plan has
 * them. A chosen download profile is sent instead of the format. Needs JavaScript: the button waits for it.
 */
export function BulkPanel({ view }: { view: BulkView }) {
  const [text, setText] = useState("");
  const [format, setFormat] = useState(() => defaultFormatOf(view.formats));
  const [profileId, setProfileId] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // the links of the running or last ZIP, as they were sent
  const [sent, setSent] = useState<string[]>([]);
  const { zip, start } = useZipDownload();
  // the same ZIP made on the server as a job, for lists too long to wait for
  const [job, setJob] = useState<{ phase: "idle" | "sending" | "created" | "failed"; error: string | null }>({ phase: "idle", error: null });
  const alertRef = useRef<HTMLParagraphElement>(null);
  const busy = zip.phase === "preparing" || job.phase === "sending";
  const error = problem ?? (job.phase === "failed" ? job.error : zip.phase === "failed" ? zip.error : null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (error) alertRef.current?.focus();
  }, [error]);

  if (!view.canBulk) {
    return <PlanUpgrade text={view.upgradeText} />;
  }

  const links = linesOf(text);
  const over = links.length > view.maxLinks;
  const profile = view.profiles.find((p) => p.id === profileId) ?? null;
  // a profile gives the format: the select shows it and waits
  const shownFormat = profile?.format ?? format;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const refusal = bulkInputProblem(links, view.maxLinks);
    setProblem(refusal);
    if (refusal || busy) return;
    setJob({ phase: "idle", error: null });
    setSent(links);
    void start(links, shownFormat, undefined, profile?.id);
  }

  async function onPrepareOnServer() {
    const refusal = bulkInputProblem(links, view.maxLinks);
    setProblem(refusal);
    if (refusal || busy) return;
    setJob({ phase: "sending", error: null });
    try {
      await requestBulkJob(links, shownFormat, { profile: profile?.id });
      setJob({ phase: "created", error: null });
    } catch (err) {
      setJob({ phase: "failed", error: err instanceof ApiError && err.message ? err.message : FRIENDLY_MESSAGES.unexpected });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="bulk-heading">
      <h3 id="bulk-heading" className="text-lg font-semibold text-slate-900">
        Download several videos as one ZIP
      </h3>
      <div className="grid gap-2">
        <Label htmlFor="bulk-links">Links (one per line)</Label>
        <textarea
          id="bulk-links"
          name="urls"
          rows={8}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby="bulk-count"
          aria-invalid={over || undefined}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          placeholder={"https://www.youtube.com/watch?v=…\nhttps://youtu.be/…"}
          className="min-h-40 w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm break-all focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:outline-none"
        />
        <p id="bulk-count" data-testid="bulk-count" className={`text-sm ${over ? "font-medium text-red-700" : "text-slate-600"}`}>
          {links.length} of {view.maxLinks} links
        </p>
      </div>
      <div className="flex flex-wrap items-start gap-4">
        <FormatSelect id="bulk-format" value={shownFormat} onChange={setFormat} formats={view.formats} disabled={profile !== null} />
        <BulkProfileChoice profiles={view.profiles} formats={view.formats} chosen={profileId} onChoose={setProfileId} />
      </div>
      {error ? (
        <p ref={alertRef} tabIndex={-1} role="alert" className="text-sm text-red-700 focus:outline-none">
          {error}
        </p>
      ) : null}
      {job.phase === "created" && !problem ? (
        <p role="status" className="text-sm text-green-800">
          The server is preparing your ZIP. It is listed in the{" "}
          <Link to="/dashboard?tab=scheduled" className="font-medium underline">
            Scheduled
          </Link>{" "}
          tab, and we will email you its link when it is ready (kept for 24 hours).
        </p>
      ) : null}
      {zip.filename && !problem && job.phase !== "created" ? (
        <>
          {zip.phase === "saving" || zip.phase === "done" ? (
            <p role="status" className="text-sm text-green-800 [overflow-wrap:anywhere]">
              Your browser is saving {zip.filename}. The files are added to it one after another as they arrive.
            </p>
          ) : null}
          <ZipFileList zip={zip} links={sent} />
        </>
      ) : null}
      <p className="text-sm text-slate-600">
        The ZIP holds each file and a manifest.csv listing every file, its size and checksum, and any link that failed with the reason.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!hydrated || busy}>
          {zip.phase === "preparing" ? "Preparing..." : "Download ZIP"}
        </Button>
        <Button type="button" variant="outline" disabled={!hydrated || busy} onClick={() => void onPrepareOnServer()}>
          {job.phase === "sending" ? "Sending..." : "Prepare on the server"}
        </Button>
      </div>
      <p className="text-sm text-slate-600">For long lists: the server makes the ZIP without this page staying open, keeps it for 24 hours and emails you the link.</p>
    </form>
  );
}
