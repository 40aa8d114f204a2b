import { describe, expect, it } from "vitest";
import type { downloadJobs } from "#db/schema/jobs.ts";
import type { ScheduledJobs } from "./scheduled-jobs.server.ts";
import { scheduledViewOf } from "./scheduled-view.server.ts";

type Row = typeof downloadJobs.$inferSelect;
const at = new Date("2026-11-26T12:00:00Z");
const base: Row = {
  id: "j",
  userId: "u",
  kind: "scheduled",
  source: null,
  name: null,
  format: "mp4-360",
  language: null,
  filenameTemplate: null,
  mediaOptions: null,
  whiteLabel: false,
  items: [],
  status: "scheduled",
  runAt: new Date("2026-11-26T13:00:00Z"),
  queueJobId: "q",
  bytesDone: 0,
  bytesTotal: null,
  fileKey: null,
  filename: null,
  fileBytes: null,
  expiresAt: null,
  error: null,
  createdAt: at,
  startedAt: null,
  finishedAt: null,
};
const item = (status: "pending" | "done" | "failed", title: string | null = null) => ({ url: "https://youtu.be/dQw4w9WgXcQ", title, status, bytes: null, error: null });

async function rowsShown(rows: Row[]) {
  const jobs = { list: async () => rows } as unknown as ScheduledJobs;
  const view = await scheduledViewOf({ jobs, fileLink: () => "http://localhost/file" }, { userId: "u", plan: "ultimate" }, at);
  return view.jobs.map((j) => [j.title, j.filesText]);
}

describe("the Scheduled tab's rows", () => {
  it("name one file by its video and a ZIP by its name, its links or its playlist, with how its files went", async () => {
    expect(
      await rowsShown([
        { ...base, items: [item("done", "A video")] },
        { ...base, kind: "bulk", items: [item("pending"), item("pending"), item("pending")] },
        { ...base, kind: "bulk", name: "Road trip", items: [item("done", "One"), item("failed"), item("done", "Three")] },
        { ...base, kind: "playlist", source: "https://www.youtube.com/playlist?list=PL1" },
        { ...base, kind: "playlist", name: "Mix", items: [item("done", "One")] },
      ]),
    ).toEqual([
      ["A video", null],
      ["ZIP of 3 links", "3 links"],
      ["Road trip", "2 of 3 files, 1 failed"],
      ["Playlist", "videos listed when it runs"],
      ["Mix", "1 of 1 file"],
    ]);
  });
});
