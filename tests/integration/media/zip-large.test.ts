/**
 * An entry past 4 GiB, made by a generator of zeros and never held: the archive needs Zip64
 * sizes, a Zip64 offset for the entry after it and a Zip64 end record, and the process's memory
 * must stay flat while 4 GiB pass through. Writes a 4 GiB file to the temp folder; takes tens of
 * seconds.
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { crc32 } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipSize } from "#engine/media/zip/zip-size.ts";
import { createZipStream, type ZipEntryResult } from "#engine/media/zip/zip-stream.ts";
import { installed, readWithPython, run } from "./zip-readers.ts";

const execFileAsync = promisify(execFile);
const MiB = 1024 * 1024;
const BIG = 4 * 1024 * MiB + MiB;
const zeros = Buffer.alloc(MiB);

// A new buffer per chunk, as a download's source gives, so a writer that kept chunks would grow.
// Filled, not Buffer.alloc: a fresh zeroed allocation can be untouched pages that RSS never counts.
async function* zeroBytes(total: number) {
  for (let left = total; left > 0; left -= MiB) yield Buffer.allocUnsafe(Math.min(MiB, left)).fill(0);
}

let dir: string;
let file: string;
let big: ZipEntryResult;
let rssBefore = 0;
let rssPeak = 0;
const planned = [
  { name: "zeros.bin", size: BIG },
  { name: "after.txt", size: 5 },
];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "vidfetch-zip-large-"));
  file = path.join(dir, "large.zip");
  rssBefore = process.memoryUsage.rss();
  rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 100);
  try {
    const zip = createZipStream();
    const written = pipeline(zip.output, createWriteStream(file));
    big = await zip.addEntry(planned[0]!.name, zeroBytes(BIG), { size: BIG });
    await zip.addEntry(planned[1]!.name, Buffer.from("after"), { size: 5 });
    await zip.finish();
    await written;
  } finally {
    clearInterval(sampler);
  }
}, 600_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a ZIP with an entry past 4 GiB", () => {
  it("kept the process's memory flat while the entry passed through", () => {
    // a writer that held the entry would grow by 4 GiB; the bound leaves room for the GC's slack
    // with 1 MiB buffers arriving faster than the disk takes them
    expect(rssPeak - rssBefore).toBeLessThan(256 * MiB);
  });

  it("is exactly the size announced for it", async () => {
    expect((await stat(file)).size).toBe(zipSize(planned));
  });

  it("reads back in Python with the size and CRC of 4 GiB and 1 MiB of zeros", async () => {
    let expectedCrc = 0;
    for (let left = BIG; left > 0; left -= MiB) expectedCrc = crc32(left >= MiB ? zeros : zeros.subarray(0, left), expectedCrc);
    expect(big).toMatchObject({ bytes: BIG, crc32: expectedCrc });
    const entries = await readWithPython(file);
    expect(entries).toEqual([
      expect.objectContaining({ name: "zeros.bin", size: BIG, crc: expectedCrc, sha256: big.sha256 }),
      expect.objectContaining({ name: "after.txt", size: 5 }),
    ]);
  }, 300_000);

  it.skipIf(!installed("zipinfo"))("zipinfo sees Zip64 fields for the size and the offset past 4 GiB", async () => {
    const out = await run("zipinfo", ["-v", file]);
    expect(out).toMatch(/number of entries: 2|central directory contains 2 entries/);
    expect(out).toMatch(/uncompressed size:\s+4296015872 bytes/);
    expect(out).toMatch(/offset of local header from start of archive:\s+4296015955/);
  });

  it.skipIf(!installed("7z"))("7-Zip tests it clean", async () => {
    expect(await run("7z", ["t", file])).toMatch(/Everything is Ok[\s\S]*Size:\s+4296015877/);
  }, 120_000);

  it.skipIf(!installed("bsdtar"))("libarchive streams it from the first byte, through the Zip64 data descriptor", async () => {
    // no central directory: the reader learns where the big entry ends from its data descriptor
    const { stdout } = await execFileAsync("sh", ["-c", 'bsdtar -xOf - < "$1" | wc -c', "sh", file]);
    const bytes = Number(stdout.trim());
    expect(bytes).toBe(BIG + 5);
  }, 120_000);
});
