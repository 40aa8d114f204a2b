import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./account.ts";

/** A job's state as the API and the dashboard show it (DESIGN §5). */
export const JOB_STATUSES = ["scheduled", "queued", "running", "done", "failed", "canceled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What a job makes: one file, or one ZIP of links or of a playlist's videos. */
export const JOB_KINDS = ["scheduled", "bulk", "playlist"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** One link of a job and how it went (a scheduled download has one, a bulk job up to its plan's limit). */
export interface JobItem {
  url: string;
  title: string | null;
  status: "pending" | "done" | "failed";
  bytes: number | null;
  error: string | null;
}

/**
 * A background download a user asked for (issue 30): scheduled for `runAt`, run by the job
 * queue (jobs/, pg-boss), its file kept for 24 hours in job storage under `fileKey`. The queue's
 * own rows say when to run; this row says what the user sees, from any instance.
 */
export const downloadJobs = pgTable(
  "download_jobs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** scheduled: one link; bulk: several links in one ZIP; playlist: a playlist link's videos in one ZIP */
    kind: text("kind").$type<JobKind>().notNull(),
    /** a playlist job's playlist link (its items are its videos, listed when it runs) */
    source: text("source"),
    /** the archive's name a bulk job was given, or a playlist's title once it ran */
    name: text("name"),
    format: text("format").notNull(),
    /** a download profile's subtitle language and file-name template (the file's, or every file's of a ZIP) */
    language: text("language"),
    filenameTemplate: text("filename_template"),
    /** the media options the job was made with (tags, clip…; engine/media/options), null: the defaults */
    mediaOptions: jsonb("media_options").$type<Record<string, unknown>>(),
    /** made through an API key of a plan with the white label: its ZIP name and mail carry no site name */
    whiteLabel: boolean("white_label").notNull().default(false),
    items: jsonb("items").$type<JobItem[]>().notNull(),
    status: text("status").$type<JobStatus>().notNull(),
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    /** the queue job that runs it now (a reschedule replaces it; an older one finds it changed and stops) */
    queueJobId: text("queue_job_id"),
    bytesDone: bigint("bytes_done", { mode: "number" }).notNull().default(0),
    bytesTotal: bigint("bytes_total", { mode: "number" }),
    fileKey: text("file_key"),
    filename: text("filename"),
    fileBytes: bigint("file_bytes", { mode: "number" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("download_jobs_user_created_idx").on(t.userId, t.createdAt), index("download_jobs_expires_idx").on(t.expiresAt)],
);
