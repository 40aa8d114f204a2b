import { count, desc, eq } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { downloadHistory } from "#db/schema/index.ts";
import { FORMAT_CATALOG, isFormatId } from "#engine/formats.ts";

export const HISTORY_PAGE_SIZE = 10;

export interface HistoryRow {
  id: string;
  title: string;
  format: string;
  /** the catalogue's label ("MP4 2160p 4K"), or the id for a format no longer listed */
  formatLabel: string;
  bytes: number | null;
  status: "done" | "failed";
  /** ISO date of the download's start */
  date: string;
}

export interface HistoryPage {
  rows: HistoryRow[];
  page: number;
  pageCount: number;
  total: number;
}

/** One page of a user's downloads, newest first (page numbers from 1; past the end: the last page). */
export async function listHistory(db: Database, userId: string, page: number, pageSize = HISTORY_PAGE_SIZE): Promise<HistoryPage> {
  const [{ total = 0 } = {}] = await db.select({ total: count() }).from(downloadHistory).where(eq(downloadHistory.userId, userId));
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db
    .select()
    .from(downloadHistory)
    .where(eq(downloadHistory.userId, userId))
    .orderBy(desc(downloadHistory.createdAt), desc(downloadHistory.id))
    .limit(pageSize)
    .offset((current - 1) * pageSize);
  return {
    rows: rows.map((r) => ({
      id: r.id,
      title: r.title,
      format: r.format,
      formatLabel: isFormatId(r.format) ? FORMAT_CATALOG[r.format].label : r.format,
      bytes: r.bytes,
      status: r.status === "done" ? "done" : "failed",
      date: r.createdAt.toISOString(),
    })),
    page: current,
    pageCount,
    total,
  };
}
