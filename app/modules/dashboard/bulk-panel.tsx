import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { defaultFormatOf, FormatSelect } from "#app/modules/downloader/components/format-select.tsx";
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
 * The Bulk tab (issue 30 §3): up to the plan's number of links, one format, one ZIP. The
 * browser asks POST /api/v1/downloads for a signed link, then follows it, so the archive is
 * saved by the browser's download manager while the server builds it, and each link's state
 * follows from the download's progress events. Plans without bulk downloads see which plan has
 * them. Needs JavaScript: the button waits for it.
 */
export function BulkPanel({ view }: { view: BulkView }) {
  const [text, setText] = useState("");
  const [format, setFormat] = useState(() => defaultFormatOf(view.formats));
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
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-6">
        <p className="font-medium text-slate-900">{view.upgradeText}</p>
        <Link to="/premium" className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
          See the plans
        </Link>
      </div>
    );
  }

  const links = linesOf(text);
  const over = links.length > view.maxLinks;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const refusal = bulkInputProblem(links, view.maxLinks);
    setProblem(refusal);
    if (refusal || busy) return;
    setJob({ phase: "idle", error: null });
    setSent(links);
    void start(links, format);
  }

  async function onPrepareOnServer() {
    const refusal = bulkInputProblem(links, view.maxLinks);
    setProblem(refusal);
    if (refusal || busy) return;
    setJob({ phase: "sending", error: null });
    try {
      await requestBulkJob(links, format);
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
      <FormatSelect id="bulk-format" value={format} onChange={setFormat} formats={view.formats} />
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
