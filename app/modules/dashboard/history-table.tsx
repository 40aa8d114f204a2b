import { Link } from "react-router";
import { formatBytes } from "#app/modules/downloader/format-bytes.ts";
import { shortDate, tabHref, type HistoryView } from "./dashboard-data.ts";
import { ScrollRegion } from "#app/components/ui/scroll-region.tsx";

function StatusBadge({ status }: { status: "done" | "failed" }) {
  return status === "done" ? (
    <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Done</span>
  ) : (
    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">Failed</span>
  );
}

const sizeText = (bytes: number | null) => (bytes !== null ? formatBytes(bytes) : "Unknown");

/**
 * The History tab: the user's downloads as the server recorded them, newest first, paginated.
 * A table from the small-tablet width up; on a phone one card per download, status first, so
 * status, format and size are read without scrolling sideways.
 */
export function HistoryTable({ history }: { history: HistoryView }) {
  if (history.total === 0) {
    return (
      <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
        <p className="font-medium text-slate-900">No downloads yet</p>
        <p className="mt-1 text-sm text-slate-600">Files you download while logged in will be listed here.</p>
        <Link to={tabHref("downloads")} className="mt-3 inline-block text-sm font-medium text-brand-700 underline">
          Start a download
        </Link>
      </div>
    );
  }
  return (
    <div>
      <ScrollRegion label="Download history table" className="hidden rounded-lg border border-slate-200 sm:block">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">Your download history, newest first</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">Title</th>
              <th scope="col" className="px-3 py-2 font-semibold">Date</th>
              <th scope="col" className="px-3 py-2 font-semibold">Format</th>
              <th scope="col" className="px-3 py-2 font-semibold">Size</th>
              <th scope="col" className="px-3 py-2 font-semibold">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {history.rows.map((row) => (
              <tr key={row.id} data-testid="history-row">
                <td className="max-w-xs truncate px-3 py-2 text-slate-900" title={row.title}>
                  {row.title}
                </td>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{shortDate(row.date)}</td>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{row.formatLabel}</td>
                <td className="px-3 py-2 whitespace-nowrap text-slate-700">{sizeText(row.bytes)}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={row.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 sm:hidden" aria-label="Your download history, newest first">
        {history.rows.map((row) => (
          <li key={row.id} className="p-3" data-testid="history-card">
            <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
              <StatusBadge status={row.status} />
              <span>{row.formatLabel}</span>
              <span aria-hidden>·</span>
              <span>{sizeText(row.bytes)}</span>
            </p>
            <p className="mt-1 truncate font-medium text-slate-900" title={row.title}>
              {row.title}
            </p>
            <p className="text-xs text-slate-600">{shortDate(row.date)}</p>
          </li>
        ))}
      </ul>
      {history.pageCount > 1 ? (
        <nav aria-label="History pages" className="mt-4 flex items-center justify-between text-sm">
          {history.page > 1 ? (
            <Link to={tabHref("history", history.page - 1)} preventScrollReset className="font-medium text-brand-700 underline">
              Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-slate-600">
            Page {history.page} of {history.pageCount}
          </span>
          {history.page < history.pageCount ? (
            <Link to={tabHref("history", history.page + 1)} preventScrollReset className="font-medium text-brand-700 underline">
              Older
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </div>
  );
}
