import { and, count, desc, eq, gte } from "drizzle-orm";
import type { Database } from "#db/client.ts";
import { downloadHistory } from "#db/schema/index.ts";
import { FORMAT_CATALOG, isFormatId } from "#engine/formats.ts";
import { historyCutoff } from "./retention.ts";

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

/**
 * One page of a user's downloads of the retention period, newest first (page numbers from 1;
 * past the end: the last page). Older rows wait for the next prune but are never shown.
 */
export async function listHistory(db: Database, userId: string, page: number, pageSize = HISTORY_PAGE_SIZE, now: Date = new Date()): Promise<HistoryPage> {
  const mine = and(eq(downloadHistory.userId, userId), gte(downloadHistory.createdAt, historyCutoff(now)));
  const [{ total = 0 } = {}] = await db.select({ total: count() }).from(downloadHistory).where(mine);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const rows = await db
    .select()
    .from(downloadHistory)
    .where(mine)
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
