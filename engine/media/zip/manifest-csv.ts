/**
 * The manifest.csv of a bulk or playlist ZIP: one row per requested item, the files that arrived
 * and the ones that failed with their error (issue 30 §3). RFC 4180: comma-separated, CRLF line
 * ends, a field with a comma, quote or line break quoted with its quotes doubled. UTF-8 with a
 * byte order mark, which Excel needs to read non-ASCII titles as UTF-8.
 */

export const MANIFEST_NAME = "manifest.csv";

export interface ManifestRow {
  /** 1-based position in the request or the playlist */
  position: number;
  title: string;
  /** the link the item came from */
  source: string;
  /** format id, e.g. "mp4-720" */
  format: string;
  /** the entry's name in the ZIP (null when no file was written) */
  fileName: string | null;
  bytes: number | null;
  /** hex SHA-256 of the file's bytes */
  sha256: string | null;
  status: "ok" | "failed";
  error?: string;
}

const HEADER = ["position", "title", "source", "format", "file_name", "bytes", "sha256", "status", "error"];

// A cell starting with one of these runs as a formula in Excel, LibreOffice and Google Sheets
// ("CSV injection"): a title like "=HYPERLINK(…)" must stay text. A leading apostrophe makes a
// spreadsheet show the rest as text; the writer's file names never start with one of these.
const FORMULA_START = /^[=+\-@\t\r]/;

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** one CSV line (with its CRLF) for a row */
export function manifestLine(row: ManifestRow): string {
  const fields = [row.position, row.title, row.source, row.format, row.fileName, row.bytes, row.sha256, row.status, row.error];
  return `${fields.map(cell).join(",")}\r\n`;
}

export function manifestCsv(rows: Iterable<ManifestRow>): Buffer {
  let text = `\uFEFF${HEADER.join(",")}\r\n`;
  for (const row of rows) text += manifestLine(row);
  return Buffer.from(text);
}
