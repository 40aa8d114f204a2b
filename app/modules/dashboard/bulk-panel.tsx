import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { defaultFormatOf, FormatSelect } from "#app/modules/downloader/components/format-select.tsx";
import { ZipFileList } from "#app/modules/downloader/components/zip-progress.tsx";
import { useZipDownload } from "#app/modules/downloader/hooks/use-zip-download.ts";
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
  const alertRef = useRef<HTMLParagraphElement>(null);
  const busy = zip.phase === "preparing";
  const error = problem ?? (zip.phase === "failed" ? zip.error : null);
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
    setSent(links);
    void start(links, format);
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
      {zip.filename && !problem ? (
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
      <div>
        <Button type="submit" disabled={!hydrated || busy}>
          {busy ? "Preparing..." : "Download ZIP"}
        </Button>
      </div>
    </form>
  );
}
