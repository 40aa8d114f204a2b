/** The streamed ZIP writer's archives, read back by common extractors that did not write them. */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_NAME, manifestCsv, type ManifestRow } from "#engine/media/zip/manifest-csv.ts";
import { zipSize } from "#engine/media/zip/zip-size.ts";
import { createZipStream, ZipEntryError, type ZipEntryResult, type ZipStream } from "#engine/media/zip/zip-stream.ts";
import { installed, readWithPython, run } from "./zip-readers.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-zip-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function toFile(zip: ZipStream, name: string): Promise<{ file: string; written: Promise<void> }> {
  const file = path.join(dir, name);
  return { file, written: pipeline(zip.output, createWriteStream(file)) };
}

const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

describe("a bulk ZIP read by other tools", () => {
  // what the entries hold, in order; the writer's results fill in the rest
  const contents: Buffer[] = [];
  const results: ZipEntryResult[] = [];
  let file: string;

  beforeAll(async () => {
    const zip = createZipStream({ reservedNames: [MANIFEST_NAME] });
    const out = await toFile(zip, "bulk.zip");
    file = out.file;
    const rows: ManifestRow[] = [];
    const add = async (title: string, data: Buffer, options: { size?: number; asStream?: boolean } = {}) => {
      const source = options.asStream ? Readable.from([data.subarray(0, 3), data.subarray(3)]) : data;
      const result = await zip.addEntry(`${title}.mp4`, source, { size: options.size });
      contents.push(data);
      results.push(result);
      rows.push({ position: rows.length + 1, title, source: `https://example.com/${rows.length + 1}`, format: "mp4-720", fileName: result.name, bytes: result.bytes, sha256: result.sha256, status: "ok" });
    };
    await add("Première vidéo — 日本語 🎬", Buffer.from("first file's bytes"), { asStream: true });
    await add("../../../tmp/escape", Buffer.from("must stay inside"), { size: 16 });
    await add("C:\\Windows\\system32", Buffer.from("no backslashes"));
    await add("=HYPERLINK(\"http://evil\")", Buffer.from("formula title"), { asStream: true });
    await add("same", Buffer.from("one"));
    await add("SAME", Buffer.from("two"), { size: 3 });
    await add("empty", Buffer.alloc(0), { asStream: true });
    // an item whose source fails half-way stays in the archive, listed as failed
    const failure: unknown = await zip
      .addEntry("broken.mp4", (async function* () {
        yield Buffer.from("half");
        throw new Error("upstream reset");
      })())
      .catch((error: unknown) => error);
    if (!(failure instanceof ZipEntryError)) throw new Error("the broken entry should have failed");
    const broken = failure.entry;
    contents.push(Buffer.from("half"));
    results.push(broken);
    rows.push({ position: rows.length + 1, title: "broken", source: "https://example.com/broken", format: "mp4-720", fileName: broken.name, bytes: broken.bytes, sha256: broken.sha256, status: "failed", error: "The download failed." });
    const manifest = manifestCsv(rows);
    results.push(await zip.addEntry(MANIFEST_NAME, manifest, { reserved: true }));
    contents.push(manifest);
    await zip.finish();
    await out.written;
  });

  it("Python's zipfile reads every name, size, CRC and byte", async () => {
    const entries = await readWithPython(file);
    expect(entries.map((e) => e.name)).toEqual(results.map((r) => r.name));
    expect(entries.map((e) => e.size)).toEqual(contents.map((c) => c.length));
    expect(entries.map((e) => e.crc)).toEqual(results.map((r) => r.crc32));
    expect(entries.map((e) => e.sha256)).toEqual(contents.map(sha256));
    expect(entries.map((e) => e.sha256)).toEqual(results.map((r) => r.sha256));
    expect(entries.every((e) => (e.flags & 0x0808) === 0x0808)).toBe(true);
  });

  it("Python's csv module reads the manifest: one row per item, formulas kept as text", async () => {
    const script = [
      "import csv, io, json, sys, zipfile",
      "z = zipfile.ZipFile(sys.argv[1])",
      "rows = list(csv.reader(io.TextIOWrapper(z.open('manifest.csv'), encoding='utf-8-sig', newline='')))",
      "json.dump(rows, sys.stdout)",
    ].join("\n");
    const rows = JSON.parse(await run("python3", ["-c", script, file])) as string[][];
    expect(rows[0]).toEqual(["position", "title", "source", "format", "file_name", "bytes", "sha256", "status", "error"]);
    expect(rows).toHaveLength(results.length);
    expect(rows[4]!.slice(1, 2)).toEqual(["'=HYPERLINK(\"http://evil\")"]);
    expect(rows.slice(1).map((row) => row[4])).toEqual(results.slice(0, -1).map((r) => r.name));
    expect(rows.at(-1)!.slice(5)).toEqual(["4", results.at(-2)!.sha256, "failed", "The download failed."]);
  });

  it.skipIf(!installed("unzip"))("unzip tests it clean and extracts every file inside the target folder", async () => {
    expect(await run("unzip", ["-t", file])).toMatch(/No errors detected in compressed data/);
    const target = path.join(dir, "extracted");
    await run("unzip", ["-q", file, "-d", target]);
    const names = await readdir(target, { recursive: true });
    expect(names.sort()).toEqual(results.map((r) => r.name).sort());
    for (const [i, r] of results.entries()) expect(await readFile(path.join(target, r.name))).toEqual(contents[i]);
    // nothing landed outside the target folder
    expect((await readdir(dir)).filter((name) => !name.endsWith(".zip"))).toEqual(["extracted"]);
  });

  it.skipIf(!installed("zipinfo"))("zipinfo lists the same names", async () => {
    expect((await run("zipinfo", ["-1", file])).trimEnd().split("\n")).toEqual(results.map((r) => r.name));
  });

  it.skipIf(!installed("7z"))("7-Zip tests it clean", async () => {
    const out = await run("7z", ["t", file]);
    expect(out).toMatch(/Everything is Ok/);
    expect(out).toMatch(new RegExp(`Files: ${results.length}\\b`));
  });

  it.skipIf(!installed("bsdtar"))("libarchive reads it from the central directory and as a stream from the first byte", async () => {
    expect((await run("bsdtar", ["-tf", file])).trimEnd().split("\n")).toEqual(results.map((r) => r.name));
    // streamed: no central directory, only local headers and data descriptors
    const streamed = spawn("bsdtar", ["-xOf", "-"], { env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } });
    const chunks: Buffer[] = [];
    streamed.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    const exited = new Promise<number | null>((resolve) => streamed.on("close", resolve));
    await pipeline(createReadStream(file), streamed.stdin);
    expect(await exited).toBe(0);
    expect(Buffer.concat(chunks)).toEqual(Buffer.concat(contents));
  });

  it("is exactly as long as announced when every size is declared", async () => {
    const manifest = contents.at(-1)!;
    const planned = [
      { name: "Première vidéo — 日本語 🎬.mp4", size: 18 },
      { name: "../../../tmp/escape.mp4", size: 16 },
      { name: "same.mp4", size: 3 },
      { name: "SAME.mp4", size: 3 },
      { name: "empty.mp4", size: 0 },
      { name: MANIFEST_NAME, size: manifest.length, reserved: true },
    ];
    const zip = createZipStream({ reservedNames: [MANIFEST_NAME] });
    const out = await toFile(zip, "planned.zip");
    for (const p of planned) await zip.addEntry(p.name, p.reserved ? manifest : Buffer.alloc(p.size, 0x61), { size: p.size, reserved: p.reserved });
    await zip.finish();
    await out.written;
    expect((await stat(out.file)).size).toBe(zipSize(planned, [MANIFEST_NAME]));
    expect((await readWithPython(out.file)).map((e) => e.size)).toEqual(planned.map((p) => p.size));
    await rm(out.file);
  });
});

describe("a ZIP of 70,000 entries (Zip64 end record)", () => {
  let file: string;
  const count = 70_000;

  beforeAll(async () => {
    const zip = createZipStream();
    const out = await toFile(zip, "many.zip");
    file = out.file;
    for (let i = 0; i < count; i++) await zip.addEntry(`entry ${i}.txt`, Buffer.from(`#${i}`));
    await zip.finish();
    await out.written;
  }, 120_000);

  it("Python reads all of them", { timeout: 120_000 }, async () => {
    const entries = await readWithPython(file);
    expect(entries).toHaveLength(count);
    expect(entries[count - 1]).toMatchObject({ name: `entry ${count - 1}.txt`, size: String(count - 1).length + 1 });
  });

  it.skipIf(!installed("unzip"))("unzip tests it clean", async () => {
    expect(await run("unzip", ["-tq", file])).toMatch(/No errors detected/);
  });

  it.skipIf(!installed("7z"))("7-Zip tests it clean", async () => {
    expect(await run("7z", ["t", file])).toMatch(new RegExp(`Everything is Ok[\\s\\S]*Files: ${count}\\b`));
  });
});
