import { randomUUID } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import type { ByteRange, FileMeta, OpenedFile, StorageBackend } from "./job-storage.ts";

/**
 * Job output on the local disk, under `<dataDir>/files/`. A key `a/b` is the file `a/b.data`
 * with its metadata (content type, file name, creation time) in `a/b.json`. Keys never contain
 * a dot, so neither name can be another key's. A write goes to `a/b.<random>.part` and is renamed
 * once complete, so a crash never leaves a half file under the real name; the metadata is in
 * place before the data appears, so a visible file always has it.
 */

interface Sidecar {
  contentType: string;
  filename: string;
  created: string;
  bytes: number;
}

const DATA = ".data";
const META = ".json";
const PART = ".part";

export function createLocalBackend(dataDir: string): StorageBackend {
  const root = resolve(dataDir, "files");

  function pathOf(key: string): string {
    const path = resolve(root, key);
    // the key pattern already rules out "..", absolute paths and dots; this is the second lock
    if (!path.startsWith(root + sep)) throw new TypeError(`job storage key escapes the storage folder: ${key}`);
    return path;
  }

  async function readSidecar(base: string): Promise<Sidecar | null> {
    try {
      const raw = JSON.parse(await readFile(base + META, "utf8")) as Partial<Sidecar>;
      if (typeof raw.contentType !== "string" || typeof raw.filename !== "string" || typeof raw.created !== "string") return null;
      return raw as Sidecar;
    } catch {
      return null;
    }
  }

  /** Every file below the root, as paths; a missing root is an empty store. */
  async function walk(): Promise<string[]> {
    try {
      const entries = await readdir(root, { recursive: true, withFileTypes: true });
      return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
  }

  /** Drops folders a deletion left empty, up to (not including) the root. */
  async function pruneFolders(path: string): Promise<void> {
    let dir = dirname(path);
    while (dir.startsWith(root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        return;
      }
      dir = dirname(dir);
    }
  }

  async function removeBase(base: string): Promise<void> {
    // data first: once it is gone the file is no longer visible
    await rm(base + DATA, { force: true });
    await rm(base + META, { force: true });
    await pruneFolders(base);
  }

  return {
    async write(key, chunks, meta) {
      const base = pathOf(key);
      await mkdir(dirname(base), { recursive: true });
      const part = `${base}.${randomUUID()}${PART}`;
      const handle = await open(part, "wx", 0o640);
      let bytes = 0;
      try {
        for await (const chunk of chunks) {
          let offset = 0;
          while (offset < chunk.length) {
            const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
            offset += bytesWritten;
          }
          bytes += chunk.length;
        }
        await handle.sync();
      } catch (err) {
        await handle.close().catch(() => {});
        await rm(part, { force: true });
        throw err;
      }
      await handle.close();
      const sidecar: Sidecar = { contentType: meta.contentType, filename: meta.filename, created: meta.created.toISOString(), bytes };
      const metaPart = `${base}.${randomUUID()}${PART}`;
      try {
        await writeFile(metaPart, JSON.stringify(sidecar), { flag: "wx", mode: 0o640 });
        await rename(metaPart, base + META);
        await rename(part, base + DATA);
      } catch (err) {
        await rm(metaPart, { force: true });
        await rm(part, { force: true });
        throw err;
      }
    },

    async open(key, range?: ByteRange): Promise<OpenedFile | null> {
      const base = pathOf(key);
      let handle;
      try {
        handle = await open(base + DATA, "r");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
      try {
        const [info, sidecar] = await Promise.all([handle.stat(), readSidecar(base)]);
        const meta: FileMeta & { created: Date } = sidecar
          ? { contentType: sidecar.contentType, filename: sidecar.filename, created: new Date(sidecar.created) }
          : { contentType: "application/octet-stream", filename: key.split("/").pop()!, created: info.mtime };
        const total = info.size;
        let start = 0;
        let end = total - 1;
        if (range) {
          if (range.start >= total) throw new RangeError(`job storage: range ${range.start}-${range.end} starts past the end (${total} bytes)`);
          start = range.start;
          end = Math.min(range.end, total - 1);
        }
        if (end < start) {
          // an empty file: nothing to read
          await handle.close();
          return { ...meta, stream: Readable.from([]), bytes: 0, totalBytes: total };
        }
        const stream = handle.createReadStream({ start, end, autoClose: true });
        return { ...meta, stream, bytes: end - start + 1, totalBytes: total };
      } catch (err) {
        await handle.close();
        throw err;
      }
    },

    async remove(key) {
      await removeBase(pathOf(key));
    },

    async removeOlderThan(cutoff) {
      const files = await walk();
      const bases = new Set<string>();
      let count = 0;
      for (const file of files) {
        if (file.endsWith(PART)) {
          // a write interrupted by a crash: its leftover goes once it is as old as the cutoff
          const info = await stat(file).catch(() => null);
          if (info && info.mtime < cutoff) await rm(file, { force: true });
        } else if (file.endsWith(DATA) || file.endsWith(META)) {
          bases.add(file.slice(0, file.lastIndexOf(".")));
        }
      }
      for (const base of bases) {
        const sidecar = await readSidecar(base);
        const data = await stat(base + DATA).catch(() => null);
        const created = sidecar ? new Date(sidecar.created) : (data?.mtime ?? new Date(0));
        if (created >= cutoff) continue;
        await removeBase(base);
        if (data) count++;
      }
      return count;
    },

    async scanBytes() {
      let total = 0;
      for (const file of await walk()) {
        if (!file.endsWith(DATA)) continue;
        const info = await stat(file).catch(() => null);
        total += info?.size ?? 0;
      }
      return total;
    },
  };
}

