import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { jobView } from "#app/modules/jobs/scheduled-jobs.server.ts";
import { JOB_STATUSES, type downloadJobs } from "#db/schema/jobs.ts";
import { openApiDocument } from "./openapi.ts";

/**
 * The scheduled-download API's description (OpenAPI and docs/api.md) is the shape the routes
 * answer: a job as jobView builds it (server/api/jobs.ts answers that, and its first three keys
 * on creation), its statuses, and every schema reference resolving.
 */
const doc = openApiDocument("http://localhost");
const schemas = doc.components.schemas as Record<string, { required?: readonly string[]; properties?: Record<string, unknown>; enum?: readonly string[] }>;

const now = new Date("2026-11-26T12:00:00Z");
const row: typeof downloadJobs.$inferSelect = {
  id: "job-1",
  userId: "user-1",
  kind: "scheduled",
  source: null,
  name: null,
  format: "mp4-720",
  language: null,
  filenameTemplate: null,
  mediaOptions: null,
  whiteLabel: false,
  items: [{ url: "https://youtu.be/dQw4w9WgXcQ", title: "A video", status: "done", bytes: 10, error: null }],
  status: "done",
  runAt: new Date("2026-11-26T10:00:00Z"),
  queueJobId: "q-1",
  bytesDone: 10,
  bytesTotal: 10,
  fileKey: "files/job-1",
  filename: "A video.mp4",
  fileBytes: 10,
  expiresAt: new Date("2026-11-27T10:00:05Z"),
  error: null,
  createdAt: new Date("2026-11-26T09:00:00Z"),
  startedAt: new Date("2026-11-26T10:00:01Z"),
  finishedAt: new Date("2026-11-26T10:00:05Z"),
};
const answered = jobView(row, now, "http://localhost/api/v1/jobs/job-1/file?token=t");

function refsOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, found);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") found.push(v);
      else refsOf(v, found);
    }
  }
  return found;
}

describe("the jobs API's description", () => {
  it("has every route the jobs router serves, with the methods it takes", () => {
    expect(Object.keys(doc.paths["/jobs"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/jobs/{id}"]).sort()).toEqual(["delete", "get", "patch"]);
    expect(Object.keys(doc.paths["/jobs/{id}/file"])).toEqual(["get"]);
  });

  it("describes a job with exactly the keys the API answers", () => {
    const job = schemas.Job!;
    expect([...job.required!].sort()).toEqual(Object.keys(answered).sort());
    expect(Object.keys(job.properties!).sort()).toEqual(Object.keys(answered).sort());
    const progress = job.properties!.progress as { required: readonly string[] };
    expect([...progress.required].sort()).toEqual(Object.keys(answered.progress).sort());
    expect([...schemas.JobItem!.required!].sort()).toEqual(Object.keys(answered.items[0]!).sort());
    expect(schemas.JobStatus!.enum).toEqual(JOB_STATUSES);
    // creation answers the first three
    expect(schemas.JobCreated!.required).toEqual(["id", "status", "runAt"]);
  });

  it("resolves every schema reference", () => {
    const missing = refsOf(doc).filter((ref) => !(ref.replace("#/components/schemas/", "") in schemas));
    expect(missing).toEqual([]);
  });

  it("shows docs/api.md's example job with exactly the keys the API answers", () => {
    const text = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
    const section = (text.split("### `GET /jobs/{id}`")[1] ?? "").split(/^### /m)[0]!;
    const example = /```json\n([\s\S]*?)\n```/.exec(section)?.[1] ?? "{}";
    const shown = JSON.parse(example) as Record<string, unknown> & { progress: object; items: object[] };
    expect(Object.keys(shown).sort()).toEqual(Object.keys(answered).sort());
    expect(Object.keys(shown.progress).sort()).toEqual(Object.keys(answered.progress).sort());
    expect(Object.keys(shown.items[0]!).sort()).toEqual(Object.keys(answered.items[0]!).sort());
    for (const status of JOB_STATUSES) expect(section).toContain(`\`${status}\``);
  });
});
