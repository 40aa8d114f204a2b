import { once } from "node:events";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MANIFEST_NAME, manifestCsv } from "./manifest-csv.ts";
import { zipSize } from "./zip-size.ts";
import { createZipStream, ZipEntryError, type ZipStream } from "./zip-stream.ts";
import { readZip } from "./zip-test-reader.ts";

const fixedNow = () => new Date(Date.UTC(2026, 10, 26, 18, 30, 42));

async function collect(zip: ZipStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zip.output) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function* chunksOf(text: string, size: number) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) {
    await Promise.resolve();
    yield bytes.subarray(at, at + size);
  }
}

describe("streamed ZIP", () => {
  it("writes stored entries that read back with their names, bytes, CRC and time", async () => {
    const zip = createZipStream({ now: fixedNow });
    const bytes = collect(zip);
    const a = await zip.addEntry("Première vidéo 🎬.mp4", Readable.from([Buffer.from("abc"), Buffer.from("def")]));
    const b = await zip.addEntry("b.txt", chunksOf("x".repeat(100_000), 4096), { size: 100_000, mtime: new Date(Date.UTC(2001, 1, 3, 4, 5, 6)) });
    const empty = await zip.addEntry("empty.bin", []);
    expect(await zip.finish()).toEqual({ bytes: zip.bytesWritten, entries: 3 });

    const archive = readZip(await bytes);
    expect(archive.zip64End).toBe(false);
    expect(archive.entries.map((e) => e.name)).toEqual(["Première vidéo 🎬.mp4", "b.txt", "empty.bin"]);
    expect(archive.entries.map((e) => e.data.toString())).toEqual(["abcdef", "x".repeat(100_000), ""]);
    // bit 3 (data descriptor) and bit 11 (UTF-8 names) on every entry
    expect(archive.entries.every((e) => e.flags === 0x0808)).toBe(true);
    // an entry of unknown size is Zip64 in its local header; a declared small one is not
    expect(archive.entries.map((e) => e.zip64Local)).toEqual([true, false, true]);
    expect(a).toEqual({ name: "Première vidéo 🎬.mp4", bytes: 6, crc32: crc32("abcdef"), sha256: "bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721" });
    expect(b.bytes).toBe(100_000);
    expect(empty).toMatchObject({ bytes: 0, crc32: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" });
    // MS-DOS time in UTC: 18:30:42 on 2026-11-26, and the declared mtime for b
    expect(archive.entries[0]).toMatchObject({ dosTime: (18 << 11) | (30 << 5) | 21, dosDate: (46 << 9) | (11 << 5) | 26 });
    expect(archive.entries[1]).toMatchObject({ dosTime: (4 << 11) | (5 << 5) | 3, dosDate: (21 << 9) | (2 << 5) | 3 });
  });

  it("tells onFirstRead once, at the consumer's first demand, whether it iterates or pipes", async () => {
    let calls = 0;
    const zip = createZipStream({ now: fixedNow, onFirstRead: () => void (calls++, zip.addEntry("a.txt", Buffer.from("a")).then(() => zip.finish())) });
    await sleep(5);
    expect(calls).toBe(0);
    expect(readZip(await collect(zip)).entries.map((e) => e.name)).toEqual(["a.txt"]);
    expect(calls).toBe(1);
    let piped = 0;
    const other = createZipStream({ onFirstRead: () => void piped++ });
    other.output.on("data", () => {});
    other.output.on("error", () => {});
    await sleep(5);
    expect(piped).toBe(1);
    other.abort(new Error("done"));
  });

  it("makes names safe and unique, and keeps the manifest's reserved name for it", async () => {
    const zip = createZipStream({ reservedNames: [MANIFEST_NAME] });
    const bytes = collect(zip);
    const names: string[] = [];
    for (const wanted of ["../../etc/passwd", "/abs/path.mp4", "a\\b.mp4", "Title.mp4", "title.mp4", "manifest.csv"]) names.push((await zip.addEntry(wanted, Buffer.from(wanted))).name);
    names.push((await zip.addEntry(MANIFEST_NAME, manifestCsv([]), { reserved: true })).name);
    await expect(zip.addEntry(MANIFEST_NAME, Buffer.alloc(0), { reserved: true })).rejects.toThrow(/reserved/);
    await zip.finish();
    const read = readZip(await bytes).entries.map((e) => e.name);
    expect(read).toEqual(names);
    expect(names.slice(3)).toEqual(["Title.mp4", "title (2).mp4", "manifest (2).csv", "manifest.csv"]);
    for (const name of names) expect(name).not.toMatch(/[/\\]|^\.|\.\./);
  });

  it("writes a Zip64 end record past 65,535 entries, and the size it announced", async () => {
    const count = 70_000;
    const planned = Array.from({ length: count }, (_, i) => ({ name: `clip ${i % 1000}.txt`, size: String(i).length }));
    const zip = createZipStream();
    const bytes = collect(zip);
    for (const [i, entry] of planned.entries()) await zip.addEntry(entry.name, Buffer.from(String(i)), { size: entry.size });
    await zip.finish();
    const archive = readZip(await bytes);
    expect(archive.zip64End).toBe(true);
    expect(archive.entries).toHaveLength(count);
    expect(new Set(archive.entries.map((e) => e.name.toLowerCase())).size).toBe(count);
    expect(archive.entries[69_999]!.data.toString()).toBe("69999");
    expect(zipSize(planned)).toBe(zip.bytesWritten);
  });

  it("announces the exact size of an archive whose entry sizes are known", async () => {
    const manifest = manifestCsv([{ position: 1, title: "=1+1", source: "https://example.com/v", format: "mp4-720", fileName: "a.mp4", bytes: 5, sha256: "0".repeat(64), status: "ok" }]);
    const planned = [
      { name: "a.mp4", size: 5 },
      { name: "A.mp4", size: 0 },
      { name: "ünïcödé 名前 🎬.webm", size: 70_000 },
      { name: "..", size: 1 },
      { name: MANIFEST_NAME, size: manifest.length, reserved: true },
    ];
    const zip = createZipStream({ reservedNames: [MANIFEST_NAME] });
    const bytes = collect(zip);
    for (const entry of planned) {
      const data = entry.name === MANIFEST_NAME ? manifest : Buffer.alloc(entry.size, 7);
      await zip.addEntry(entry.name, Readable.from([data]), { size: entry.size, reserved: entry.reserved });
    }
    await zip.finish();
    expect((await bytes).length).toBe(zipSize(planned, [MANIFEST_NAME]));
    expect(zip.bytesWritten).toBe(zipSize(planned, [MANIFEST_NAME]));
  });

  it("counts Zip64 records in the announced size of archives past 4 GiB", () => {
    const small = zipSize([{ name: "a", size: 10 }]);
    // a 5 GiB entry: Zip64 local field (20) and descriptor (+8), central sizes (4 + 16), Zip64 end (76)
    expect(zipSize([{ name: "a", size: 5 * 2 ** 30 }]) - 5 * 2 ** 30 + 10).toBe(small + 20 + 8 + 20 + 76);
    // the entry after it starts past 4 GiB: its central record holds the offset (4 + 8)
    const two = zipSize([{ name: "a", size: 5 * 2 ** 30 }, { name: "b", size: 1 }]);
    expect(two - zipSize([{ name: "a", size: 5 * 2 ** 30 }])).toBe(30 + 1 + 1 + 16 + 46 + 1 + 12);
    expect(() => zipSize([{ name: "a", size: -1 }])).toThrow(RangeError);
  });

  it("reads a source no faster than a slow consumer takes the archive", async () => {
    const chunk = Buffer.alloc(16 * 1024, 1);
    let pulled = 0;
    async function* endless() {
      for (;;) {
        await new Promise(setImmediate);
        pulled += chunk.length;
        yield chunk;
      }
    }
    const highWaterMark = 64 * 1024;
    const zip = createZipStream({ highWaterMark });
    zip.output.on("error", () => {});
    const entry = zip.addEntry("big.bin", endless());
    let consumed = 0;
    let maxAhead = 0;
    for (let i = 0; i < 40; i++) {
      await sleep(2);
      const got = zip.output.read(8 * 1024) as Buffer | null;
      consumed += got?.length ?? 0;
      maxAhead = Math.max(maxAhead, pulled - consumed);
    }
    expect(consumed).toBeGreaterThan(0);
    // what the output buffers, plus the chunk in hand and the one the generator is making
    expect(maxAhead).toBeLessThanOrEqual(highWaterMark + 3 * chunk.length);
    zip.abort(new Error("done"));
    await expect(entry).rejects.toThrow("done");
  });

  it("ends the output with the abort reason, rejects pending work and lets go of the sources", async () => {
    const zip = createZipStream();
    const errored = once(zip.output, "error");
    let finallyRan = false;
    async function* trickle() {
      try {
        for (;;) {
          await sleep(5);
          yield Buffer.from("data");
        }
      } finally {
        finallyRan = true;
      }
    }
    const first = zip.addEntry("a.bin", trickle());
    const queuedSource = new Readable({ read() {} });
    const queued = zip.addEntry("b.bin", queuedSource);
    zip.output.resume();
    await sleep(30);
    const reason = new Error("client went away");
    zip.abort(reason);
    const [emitted] = await errored;
    expect(emitted).toBe(reason);
    await expect(first).rejects.toBe(reason);
    await expect(queued).rejects.toBe(reason);
    await expect(zip.finish()).rejects.toBe(reason);
    await expect(zip.addEntry("c.bin", Buffer.from("x"))).rejects.toBe(reason);
    expect(queuedSource.destroyed).toBe(true);
    await sleep(20);
    expect(finallyRan).toBe(true);
  });

  it("stops reading a stalled source when the consumer closes the output", async () => {
    const zip = createZipStream();
    const stalled = new Readable({ read() {} });
    stalled.push("some bytes");
    const entry = zip.addEntry("stalled.bin", stalled);
    zip.output.resume();
    await sleep(10);
    zip.output.destroy();
    await expect(entry).rejects.toThrow(/closed before the archive ended/);
    expect(stalled.destroyed).toBe(true);
  });

  it("closes an entry whose source fails, reports it, and goes on with the next", async () => {
    const zip = createZipStream();
    const bytes = collect(zip);
    async function* failing() {
      yield Buffer.from("partial");
      throw new Error("upstream reset");
    }
    const failed = await zip.addEntry("broken.mp4", failing()).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ZipEntryError);
    expect((failed as ZipEntryError).entry).toMatchObject({ name: "broken.mp4", bytes: 7 });
    expect(((failed as ZipEntryError).cause as Error).message).toBe("upstream reset");
    await zip.addEntry("ok.mp4", Buffer.from("fine"));
    await zip.finish();
    const entries = readZip(await bytes).entries;
    expect(entries.map((e) => [e.name, e.data.toString()])).toEqual([
      ["broken.mp4", "partial"],
      ["ok.mp4", "fine"],
    ]);
  });

  it("never writes more than an entry's declared size, and fails an entry that ends short", async () => {
    const zip = createZipStream();
    const bytes = collect(zip);
    const longer = await zip.addEntry("long.bin", Readable.from([Buffer.from("12345"), Buffer.from("6789")]), { size: 6 }).catch((e: unknown) => e);
    expect(longer).toBeInstanceOf(ZipEntryError);
    expect((longer as ZipEntryError).entry.bytes).toBe(6);
    const shorter = await zip.addEntry("short.bin", Buffer.from("12"), { size: 3 }).catch((e: unknown) => e);
    expect((shorter as ZipEntryError).message).toMatch(/after 2 of its declared 3 bytes/);
    await zip.finish();
    const entries = readZip(await bytes).entries;
    expect(entries.map((e) => e.data.toString())).toEqual(["123456", "12"]);
    // the longer source was cut at its declared size, so the announced size still holds for it
    expect(zip.bytesWritten).toBe(zipSize([{ name: "long.bin", size: 6 }, { name: "short.bin", size: 3 }]) - 1);
  });

  it("takes no entry after finish()", async () => {
    const zip = createZipStream();
    zip.output.resume();
    await zip.finish();
    await expect(zip.addEntry("late.txt", Buffer.from("x"))).rejects.toThrow(/finished/);
  });
});
