import { formatBytes } from "../format-bytes.ts";
import type { ZipDownload } from "../hooks/use-zip-download.ts";
import type { FileProgress } from "../run-download.ts";

/** A ZIP file's state in words: Waiting, Downloading, Saved, or Failed with the reason. */
export function fileStateText(item: FileProgress | undefined): string {
  switch (item?.status) {
    case "running":
      return "Downloading";
    case "done":
      return "Saved";
    case "failed":
      return item.error ? `Failed: ${item.error}` : "Failed";
    default:
      return "Waiting";
  }
}

const STATE_CLASS: Record<FileProgress["status"], string> = {
  pending: "text-slate-600",
  running: "font-medium text-brand-700",
  done: "font-medium text-emerald-800",
  failed: "font-medium text-red-700",
};

/** One file's state, as a short label beside its title. */
export function FileState({ item }: { item: FileProgress | undefined }) {
  return (
    <span data-testid="file-state" className={`text-sm [overflow-wrap:anywhere] ${STATE_CLASS[item?.status ?? "pending"]}`}>
      {fileStateText(item)}
    </span>
  );
}

/** "2 of 3 files", and how many failed once any did. */
export function filesCountText(zip: Pick<ZipDownload, "files">): string | null {
  const f = zip.files;
  if (!f) return null;
  return `${f.done} of ${f.total} files${f.failed > 0 ? `, ${f.failed} failed` : ""}`;
}

/**
 * The ZIP's files so far and its bytes. The file count is a polite live region (it changes once
 * a file, not with every chunk); the bytes beside it are not announced.
 */
export function ZipProgressSummary({ zip }: { zip: ZipDownload }) {
  if (!zip.filename || zip.phase === "idle" || zip.phase === "preparing") return null;
  const count = filesCountText(zip);
  return (
    <p className="text-sm text-slate-700" data-testid="zip-progress">
      <span role="status" aria-live="polite">
        {count ?? (zip.phase === "saving" && !zip.untracked ? "Starting the ZIP..." : "")}
      </span>
      {zip.bytes > 0 ? (
        <span className="tabular-nums">
          {count || zip.phase === "saving" ? " · " : ""}
          {formatBytes(zip.bytes)} so far
        </span>
      ) : null}
    </p>
  );
}

/**
 * The dashboard's list of a ZIP's links: each link (or its video's title once known) and its
 * state, once the progress events carry the files. The playlist card shows the same states in
 * its own rows (`FileState`).
 */
export function ZipFileList({ zip, links }: { zip: ZipDownload; links: string[] }) {
  if (!zip.filename || zip.phase === "idle" || zip.phase === "preparing" || zip.untracked) return null;
  const files = zip.files;
  return (
    <div className="grid gap-2">
      <ZipProgressSummary zip={zip} />
      {files ? (
        <ul aria-label="Files in the ZIP" className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {links.map((link, i) => {
            const item = files.items[i];
            return (
              <li key={`${i}-${link}`} className="flex flex-col gap-1 p-2 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4" data-testid="zip-file">
                <span className={`min-w-0 text-sm [overflow-wrap:anywhere] ${item?.title ? "text-slate-900" : "font-mono text-slate-700"}`}>{item?.title ?? link}</span>
                <span className="shrink-0 sm:max-w-[50%] sm:text-right">
                  <FileState item={item} />
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
