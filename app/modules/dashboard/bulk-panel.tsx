import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { ApiError, FRIENDLY_MESSAGES, requestBulkDownload } from "#app/modules/downloader/api-client.ts";
import { saveWithBrowser } from "#app/modules/downloader/save-file.ts";
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

type Outcome = { kind: "error"; message: string } | { kind: "started"; filename: string } | null;

/**
 * The Bulk tab (issue 30 §3): up to the plan's number of links, one format, one ZIP. The
 * browser asks POST /api/v1/downloads for a signed link, then follows it, so the archive is
 * saved by the browser's download manager while the server builds it. Plans without bulk
 * downloads see which plan has them. Needs JavaScript: the button waits for it.
 */
export function BulkPanel({ view }: { view: BulkView }) {
  const [text, setText] = useState("");
  const [format, setFormat] = useState(() => view.formats.find((f) => f.id === "mp4-720")?.id ?? view.formats[0]?.id ?? "");
  const [busy, setBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const alertRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (outcome?.kind === "error") alertRef.current?.focus();
  }, [outcome]);

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

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = bulkInputProblem(links, view.maxLinks);
    if (problem) {
      setOutcome({ kind: "error", message: problem });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const ticket = await requestBulkDownload(links, format);
      saveWithBrowser(ticket.downloadUrl, ticket.filename);
      setOutcome({ kind: "started", filename: ticket.filename });
    } catch (err) {
      setOutcome({ kind: "error", message: err instanceof ApiError ? err.message : FRIENDLY_MESSAGES.unexpected });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:p-6" aria-labelledby="bulk-heading">
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
      <div className="grid gap-2 sm:max-w-xs">
        <Label htmlFor="bulk-format">Format</Label>
        <select
          id="bulk-format"
          name="format"
          value={format}
          onChange={(e) => setFormat(e.target.value)}
          className="h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
        >
          {view.formats.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      {outcome?.kind === "error" ? (
        <p ref={alertRef} tabIndex={-1} role="alert" className="text-sm text-red-700 focus:outline-none">
          {outcome.message}
        </p>
      ) : null}
      {outcome?.kind === "started" ? (
        <p role="status" className="text-sm text-green-800">
          Your browser is saving {outcome.filename}. The files are added to it one after another as they arrive.
        </p>
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
