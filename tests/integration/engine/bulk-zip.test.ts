/**
 * Issue 30 §3 "Direct" and §4 through the API as the host mounts it: an Ultimate user's bulk
 * download is one ZIP streamed as it is built (files that ffprobe as their format, a failed link
 * listed with its error, manifest.csv last with each file's size and SHA-256), single-use like
 * any link; other plans get 403 plan.required, too many links a 400, and a client that leaves
 * mid-archive closes every upstream.
 */
import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabases } from "#tests/support/test-db.ts";
import { MOCK_GENERIC_HOST, SLOW_FILE_PATH } from "#tests/mocks/platform.ts";
import { ffprobeFile } from "../media/helpers.ts";
import { installed, run } from "../media/zip-readers.ts";
import { closePlatform, planFixtureFor, type PlanFixture } from "../plans/plan-fixture.ts";

afterAll(() => closePlatform());

interface Created {
  id: string;
  downloadUrl: string;
  filename: string;
  expiresAt: string;
  bytes: number | null;
}

const GOOD = ["https://www.youtube.com/watch?v=vidfetchAll", "https://youtu.be/vidfetch720", "https://www.youtube.com/watch?v=vidfetchCap"];
const PRIVATE = "https://www.youtube.com/watch?v=vidfetchPrv";
const SLOW = `https://${MOCK_GENERIC_HOST}${SLOW_FILE_PATH}`;

async function until<T>(fn: () => T | undefined | Promise<T | undefined>, what: string, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** RFC 4180 rows (quoted fields with doubled quotes), enough for the manifest */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  return rows;
}

describe.each(testDatabases)("bulk ZIP downloads through /api/v1 on $name", (variant) => {
  let fx: PlanFixture;
  const { skip } = planFixtureFor(variant, (started) => ({ fx } = started));

  it.skipIf(skip)("an Ultimate user gets 3 files and a failed row in one valid, single-use ZIP with the manifest last", async () => {
    const user = await fx.signUp("Bulk", "ultimate");
    const urls = [GOOD[0]!, PRIVATE, GOOD[1]!, GOOD[2]!];
    const res = await fx.post("/downloads", { urls, format: "mp4-360" }, user.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as Created;
    expect(created.id).toMatch(/^dl_/);
    expect(created.bytes).toBeNull();
    expect(created.filename).toBe(`VidFetch bulk ${new Date().toISOString().slice(0, 10)}.zip`);

    // the progress events tell each file's state as the archive is built
    const seen: Array<{ state: string; files?: { total: number; done: number; failed: number; items: Array<{ status: string; title: string | null; error?: string }> } }> = [];
    const unsubscribe = await fx.engine.subscribeProgress(created.id, (p) => void seen.push(p));
    const file = await fetch(created.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    expect(file.headers.get("content-disposition")).toContain(`filename="${created.filename}"`);
    const archive = Buffer.from(await file.arrayBuffer());

    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-"));
    try {
      const zipPath = path.join(dir, "bulk.zip");
      await writeFile(zipPath, archive);
      expect(await run("unzip", ["-t", zipPath])).toContain("No errors detected");
      if (installed("7z")) expect(await run("7z", ["t", zipPath])).toContain("Everything is Ok");
      const names = (await run("zipinfo", ["-1", zipPath])).trim().split("\n");
      expect(names).toEqual(["Sample clip in every quality (360p).mp4", "Sample clip up to 720p (360p).mp4", "Sample clip with captions (360p).mp4", "manifest.csv"]);
      const out = path.join(dir, "out");
      await run("unzip", ["-q", zipPath, "-d", out]);
      expect((await readdir(out)).sort()).toEqual([...names].sort());

      const manifest = await readFile(path.join(out, "manifest.csv"), "utf8");
      expect(manifest.startsWith("\uFEFF")).toBe(true);
      const [header, ...rows] = parseCsv(manifest.slice(1));
      expect(header).toEqual(["position", "title", "source", "format", "file_name", "bytes", "sha256", "status", "error"]);
      expect(rows.map((r) => [r[0], r[2], r[3], r[7]])).toEqual([
        ["1", urls[0], "mp4-360", "ok"],
        ["2", urls[1], "mp4-360", "failed"],
        ["3", "https://www.youtube.com/watch?v=vidfetch720", "mp4-360", "ok"],
        ["4", urls[3], "mp4-360", "ok"],
      ]);
      expect(rows[1]).toEqual(["2", "", urls[1], "mp4-360", "", "", "", "failed", "This video is private."]);
      for (const row of rows.filter((r) => r[7] === "ok")) {
        const data = await readFile(path.join(out, row[4]!));
        expect(row[5]).toBe(String(data.length));
        expect(row[6]).toBe(createHash("sha256").update(data).digest("hex"));
        expect(row[8]).toBe("");
        const probe = await ffprobeFile(path.join(out, row[4]!));
        expect(probe.formatName).toContain("mp4");
        expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(360);
        expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
      }
      expect(rows.map((r) => r[1])).toEqual(["Sample clip in every quality", "", "Sample clip up to 720p", "Sample clip with captions"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const last = await until(() => seen.find((p) => p.state === "done"), "the done event");
    unsubscribe();
    expect(last.files).toEqual({
      total: 4,
      done: 3,
      failed: 1,
      items: [
        { status: "done", title: "Sample clip in every quality" },
        { status: "failed", title: null, error: "This video is private." },
        { status: "done", title: "Sample clip up to 720p" },
        { status: "done", title: "Sample clip with captions" },
      ],
    });
    // the browser's progress events carry the same files
    const events = await (await fetch(`${fx.origin}/api/v1/downloads/${created.id}/progress`)).text();
    const finalEvent = JSON.parse(events.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6)) as typeof last;
    expect(finalEvent).toEqual({ bytes: archive.length, total: null, state: "done", files: last.files });
    // one file at a time: the third was running while the fourth still waited
    expect(seen.some((p) => p.files?.items[2]?.status === "running" && p.files.items[3]?.status === "pending" && p.files.done === 1 && p.files.failed === 1)).toBe(true);

    // progress counted the archive's bytes and ended done
    const progress = await new Promise<{ bytes: number; state: string }>((resolve) => {
      void fx.engine.subscribeProgress(created.id, (p) => resolve(p)).then((unsubscribe) => unsubscribe());
    });
    expect(progress).toMatchObject({ bytes: archive.length, state: "done" });
    // each file that arrived is a row of the user's history
    const items = await until(() => {
      const found = fx.finished.filter((e) => e.id.startsWith(`${created.id}_`));
      return found.length === 3 ? found : undefined;
    }, "three history events");
    expect(items.map((e) => [e.id, e.title, e.complete]).sort()).toEqual([
      [`${created.id}_1`, "Sample clip in every quality", true],
      [`${created.id}_3`, "Sample clip up to 720p", true],
      [`${created.id}_4`, "Sample clip with captions", true],
    ]);
    // single-use like every download link
    const again = await fetch(created.downloadUrl);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("download.link_used");
  }, 120_000);

  it.skipIf(skip)("a ZIP asked for with an Ultimate API key and no name is not named after the site (white label); with a session it is", async () => {
    const user = await fx.signUp("BulkKey", "ultimate");
    const made = await fetch(`${fx.origin}/api/v1/keys`, { method: "POST", headers: { "content-type": "application/json", cookie: user.cookie }, body: JSON.stringify({ name: "Reseller" }) });
    expect(made.status).toBe(201);
    const { key } = (await made.json()) as { key: string };
    const day = new Date().toISOString().slice(0, 10);
    const res = await fetch(`${fx.origin}/api/v1/downloads`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ urls: GOOD.slice(0, 2), format: "mp3-128" }),
    });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Created;
    expect(created.filename).toBe(`Bulk ${day}.zip`);
    const file = await fetch(created.downloadUrl);
    expect(file.headers.get("content-disposition")).toContain(`filename="Bulk ${day}.zip"`);
    await file.arrayBuffer();
    const session = (await (await fx.post("/downloads", { urls: GOOD.slice(0, 2), format: "mp3-128" }, user.cookie)).json()) as Created;
    expect(session.filename).toBe(`VidFetch bulk ${day}.zip`);
  }, 60_000);

  it.skipIf(skip)("a ZIP made with a download profile takes its format and names every file by its template; neither format nor profile is a 400", async () => {
    const user = await fx.signUp("BulkProfile", "ultimate");
    const made = await fetch(`${fx.origin}/api/v1/profiles`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: user.cookie },
      body: JSON.stringify({ name: "Music", format: "mp3-128", filenameTemplate: "{channel} - {id}" }),
    });
    expect(made.status).toBe(201);
    const profile = (await made.json()) as { id: string };
    const res = await fx.post("/downloads", { urls: GOOD.slice(0, 2), profile: profile.id }, user.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as Created;
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-profile-"));
    try {
      const zipPath = path.join(dir, "bulk.zip");
      await writeFile(zipPath, Buffer.from(await (await fetch(created.downloadUrl)).arrayBuffer()));
      expect((await run("zipinfo", ["-1", zipPath])).trim().split("\n")).toEqual(["VidFetch Samples - vidfetchAll.mp3", "Tiny Channel - vidfetch720.mp3", "manifest.csv"]);
      await run("unzip", ["-q", zipPath, "-d", dir]);
      expect((await ffprobeFile(path.join(dir, "VidFetch Samples - vidfetchAll.mp3"))).formatName).toBe("mp3");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const neither = await fx.post("/downloads", { urls: GOOD.slice(0, 2) }, user.cookie);
    expect(neither.status).toBe(400);
    // another account's profile is not theirs to use
    const other = await fx.signUp("BulkProfileThief", "ultimate");
    const stolen = await fx.post("/downloads", { urls: GOOD.slice(0, 2), profile: profile.id }, other.cookie);
    expect(stolen.status).toBe(404);
  }, 60_000);

  it.skipIf(skip)("a ZIP of clips names each file by the clip's span, the manifest too", async () => {
    const user = await fx.signUp("BulkClips", "ultimate");
    const created = (await (await fx.post("/downloads", { urls: GOOD.slice(0, 2), format: "mp4-360", start: 2, end: "0:04" }, user.cookie)).json()) as Created;
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-clips-"));
    try {
      const zipPath = path.join(dir, "bulk.zip");
      await writeFile(zipPath, Buffer.from(await (await fetch(created.downloadUrl)).arrayBuffer()));
      const names = ["Sample clip in every quality (360p) [0.02-0.04].mp4", "Sample clip up to 720p (360p) [0.02-0.04].mp4"];
      expect((await run("zipinfo", ["-1", zipPath])).trim().split("\n")).toEqual([...names, "manifest.csv"]);
      const rows = parseCsv((await run("unzip", ["-p", zipPath, "manifest.csv"])).slice(1)).slice(1);
      expect(rows.map((r) => r[4])).toEqual(names);
      await run("unzip", ["-q", zipPath, "-d", dir]);
      const duration = (await ffprobeFile(path.join(dir, names[0]!))).duration;
      expect(duration).toBeGreaterThan(1.9);
      expect(duration).toBeLessThan(2.2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(skip)("the SSRF guard applies to every link: a private address is a failed row, the other file arrives", async () => {
    const user = await fx.signUp("Guarded", "ultimate");
    const urls = ["http://10.0.0.1/video.mp4", GOOD[1]!];
    const created = (await (await fx.post("/downloads", { urls, format: "mp4-360" }, user.cookie)).json()) as Created;
    const archive = Buffer.from(await (await fetch(created.downloadUrl)).arrayBuffer());
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-bulk-"));
    try {
      const zipPath = path.join(dir, "bulk.zip");
      await writeFile(zipPath, archive);
      expect((await run("zipinfo", ["-1", zipPath])).trim().split("\n")).toEqual(["Sample clip up to 720p (360p).mp4", "manifest.csv"]);
      const manifest = (await run("unzip", ["-p", zipPath, "manifest.csv"])).slice(1);
      const rows = parseCsv(manifest).slice(1);
      expect(rows.map((r) => [r[0], r[7], r[8]])).toEqual([
        ["1", "failed", "This link points to a private or local network address, which is not allowed."],
        ["2", "ok", ""],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(skip)("anonymous, Free, Basic and Pro callers get 403 plan.required naming Ultimate", async () => {
    const body = { urls: GOOD, format: "mp4-360" };
    const subscribe = "Bulk downloads come with the Ultimate plan. Subscribe to use them.";
    const change = "Bulk downloads come with the Ultimate plan. Change your plan to use them.";
    const anonymous = await fx.post("/downloads", body);
    expect(anonymous.status).toBe(403);
    expect(await anonymous.json()).toEqual({ error: { code: "plan.required", message: subscribe } });
    const free = await fx.signUp("FreeBulk");
    const freeRes = await fx.post("/downloads", body, free.cookie);
    expect(freeRes.status).toBe(403);
    expect(await freeRes.json()).toEqual({ error: { code: "plan.required", message: subscribe } });
    for (const plan of ["basic", "pro"] as const) {
      const paid = await fx.signUp(`Paid${plan}`, plan);
      const refused = await fx.post("/downloads", body, paid.cookie);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: { code: "plan.required", message: change } });
    }
  });

  it.skipIf(skip)("51 links, no link, a malformed link or a URL with the list are a 400", async () => {
    const user = await fx.signUp("Many", "ultimate");
    const many = Array.from({ length: 51 }, (_, i) => `https://www.youtube.com/watch?v=vidfetch${String(i).padStart(3, "0")}`);
    const tooMany = await fx.post("/downloads", { urls: many, format: "mp4-360" }, user.cookie);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.json()).toEqual({ error: { code: "bulk.too_many_links", message: "A bulk download takes at most 50 links; this one has 51." } });
    // 50 are fine
    expect((await fx.post("/downloads", { urls: many.slice(0, 50), format: "mp4-360" }, user.cookie)).status).toBe(200);
    const none = await fx.post("/downloads", { urls: [], format: "mp4-360" }, user.cookie);
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("request.invalid");
    const malformed = await fx.post("/downloads", { urls: [GOOD[0], "not a link"], format: "mp4-360" }, user.cookie);
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { message: string } }).error.message).toMatch(/^Link 2: /);
    // a name the caller gives the archive is made safe for a file name; a long one is cut
    const named = await fx.post("/downloads", { urls: GOOD, format: "mp4-360", name: ' My list: part/1?\u0007 ' }, user.cookie);
    expect(((await named.json()) as Created).filename).toBe("My list part 1.zip");
    const long = await fx.post("/downloads", { urls: GOOD, format: "mp4-360", name: "é".repeat(150) }, user.cookie);
    expect(((await long.json()) as Created).filename).toBe(`${"é".repeat(120)}.zip`);
    const both = await fx.post("/downloads", { url: GOOD[0], urls: GOOD, format: "mp4-360" }, user.cookie);
    expect(both.status).toBe(400);
    expect(((await both.json()) as { error: { code: string } }).error.code).toBe("request.invalid");
  });

  it.skipIf(skip)("a client that leaves mid-archive closes every upstream and the next link is never opened", async () => {
    const user = await fx.signUp("Leaver", "ultimate");
    const res = await fx.post("/downloads", { urls: [SLOW, SLOW, SLOW], format: "mp4-360" }, user.cookie);
    expect(res.status).toBe(200);
    const created = (await res.json()) as Created;
    const controller = new AbortController();
    const reader = (await fetch(created.downloadUrl, { signal: controller.signal })).body!.getReader();
    await reader.read();
    await until(() => (fx.openUpstreamFiles() > 0 ? true : undefined), "the first upstream");
    expect(fx.openUpstreamFiles()).toBe(1);
    const leftAt = Date.now();
    controller.abort();
    await until(() => (fx.openUpstreamFiles() === 0 ? true : undefined), "every upstream closed");
    expect(Date.now() - leftAt).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 300));
    expect(fx.openUpstreamFiles()).toBe(0);
    const progress = await new Promise<{ state: string }>((resolve) => {
      void fx.engine.subscribeProgress(created.id, (p) => resolve(p)).then((unsubscribe) => unsubscribe());
    });
    expect(progress.state).toBe("aborted");
  }, 60_000);

  it.skipIf(skip)("engine.openDownload gives the same file as a Readable, refuses what the plan lacks and stops its upstream when aborted", async () => {
    const pro = { kind: "premium" as const, plan: "pro" as const };
    const opened = await fx.engine.openDownload({ url: GOOD[0]!, format: "mp4-360", caller: pro, ip: "127.0.0.1" });
    expect(opened).toMatchObject({ filename: "Sample clip in every quality (360p).mp4", title: "Sample clip in every quality", contentType: "video/mp4" });
    const dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-open-"));
    try {
      const file = path.join(dir, opened.filename);
      await pipeline(opened.stream, createWriteStream(file));
      const probe = await ffprobeFile(file);
      expect(probe.streams.find((s) => s.codec_type === "video")?.height).toBe(360);
      expect(probe.streams.some((s) => s.codec_type === "audio")).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await expect(fx.engine.openDownload({ url: GOOD[0]!, format: "mp4-2160", caller: { kind: "free" }, ip: "127.0.0.1" })).rejects.toMatchObject({ code: "format.premium" });
    await expect(fx.engine.openDownload({ url: GOOD[0]!, format: "mp4-999", caller: pro, ip: "127.0.0.1" })).rejects.toMatchObject({ code: "format.unknown" });

    const controller = new AbortController();
    const slow = await fx.engine.openDownload({ url: SLOW, format: "mp4-360", caller: pro, ip: "127.0.0.1", signal: controller.signal });
    slow.stream.resume();
    await until(() => (fx.openUpstreamFiles() > 0 ? true : undefined), "the upstream");
    const failed = new Promise((resolve) => slow.stream.once("error", resolve));
    controller.abort();
    await failed;
    await until(() => (fx.openUpstreamFiles() === 0 ? true : undefined), "the upstream closed");
  }, 60_000);
});
