import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startFakeS3, type FakeS3 } from "#tests/support/fake-s3.ts";
import { loadConfig } from "#server/config.ts";
import { createJobStorage, JobStorageError, jobStorageOptionsFrom, type JobStorage } from "./job-storage.ts";

/** what the storage logged, as [level, message] */
const logged: [string, string][] = [];
const logger = { info: (_: unknown, msg: string) => logged.push(["info", msg]), warn: (_: unknown, msg: string) => logged.push(["warn", msg]) } as never;
const MiB = 1024 * 1024;

/** `total` deterministic bytes in pieces of `piece`, one piece per turn of the event loop. */
function bytes(total: number, opts: { piece?: number; seed?: number; failAfter?: number; onPiece?: () => void } = {}): Readable {
  const piece = opts.piece ?? 64 * 1024;
  const seed = opts.seed ?? 1;
  async function* gen() {
    for (let at = 0; at < total; at += piece) {
      if (opts.failAfter !== undefined && at >= opts.failAfter) throw new Error("the source broke off");
      await new Promise((r) => setImmediate(r));
      opts.onPiece?.();
      const n = Math.min(piece, total - at);
      const chunk = Buffer.alloc(n);
      for (let i = 0; i < n; i++) chunk[i] = (at + i + seed) % 251;
      yield chunk;
    }
  }
  return Readable.from(gen(), { objectMode: false });
}

function expected(total: number, seed = 1): Buffer {
  const b = Buffer.alloc(total);
  for (let i = 0; i < total; i++) b[i] = (i + seed) % 251;
  return b;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const meta = { contentType: "video/mp4", filename: "Clip – ünïcode “quoted”.mp4" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether a key opens (its stream is closed again). */
async function exists(storage: JobStorage, key: string): Promise<boolean> {
  const file = await storage.open(key);
  file?.stream.destroy();
  return file !== null;
}

interface Backend {
  name: string;
  make(maxBytes: number): JobStorage;
  /** no half-written or leftover bytes anywhere in the store */
  leftovers(): Promise<string[]>;
  reset(): Promise<void>;
}

let dataDir = "";
let fake: FakeS3;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "vidfetch-job-storage-"));
  fake = await startFakeS3();
});

afterAll(async () => {
  await fake.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
  } catch {
    return [];
  }
}

const local: Backend = {
  name: "local disk",
  make: (maxBytes) => createJobStorage({ dataDir, maxBytes, logger }),
  leftovers: async () => (await filesUnder(join(dataDir, "files"))).filter((f) => f.endsWith(".part")),
  reset: () => rm(join(dataDir, "files"), { recursive: true, force: true }),
};

const s3: Backend = {
  name: "S3 bucket",
  make: (maxBytes) =>
    createJobStorage({
      dataDir,
      maxBytes,
      logger,
      s3: { endpoint: fake.endpoint, bucket: fake.bucket, region: "us-east-1", accessKeyId: "test-key", secretAccessKey: "test-secret" },
    }),
  leftovers: async () => [...fake.uploads.values()].map((u) => `unfinished upload ${u.key}`),
  reset: async () => {
    fake.objects.clear();
    fake.uploads.clear();
    fake.failing.clear();
    fake.calls.length = 0;
    fake.pageSize = 1000;
  },
};

describe.each([local, s3])("job storage on the $name", (backend) => {
  afterEach(() => backend.reset());

  test("a stored file reads back whole, with its type, name and size", async () => {
    const storage = backend.make(100 * MiB);
    expect(await storage.put("job-1/out", bytes(300_000), meta)).toEqual({ bytes: 300_000 });
    const file = await storage.open("job-1/out");
    expect(file).toMatchObject({ bytes: 300_000, totalBytes: 300_000, contentType: "video/mp4", filename: meta.filename });
    expect(file!.created).toBeInstanceOf(Date);
    expect(sha(await readAll(file!.stream))).toBe(sha(expected(300_000)));
    expect(await storage.usedBytes()).toBe(300_000);
    expect(await storage.open("job-2/out")).toBeNull();
  });

  test("a file larger than one upload part (11 MiB) arrives intact", async () => {
    const storage = backend.make(100 * MiB);
    await storage.put("big", bytes(11 * MiB, { piece: 256 * 1024 }), { contentType: "application/zip", filename: "all.zip" });
    const file = await storage.open("big");
    expect(file!.bytes).toBe(11 * MiB);
    expect(sha(await readAll(file!.stream))).toBe(sha(expected(11 * MiB)));
  });

  test("a range reads just those bytes; an end past the file is clamped; a start past it is refused", async () => {
    const storage = backend.make(MiB);
    await storage.put("ranged", bytes(1000), meta);
    const all = expected(1000);
    const middle = await storage.open("ranged", { start: 100, end: 199 });
    expect(middle).toMatchObject({ bytes: 100, totalBytes: 1000 });
    expect((await readAll(middle!.stream)).equals(all.subarray(100, 200))).toBe(true);
    const tail = await storage.open("ranged", { start: 990, end: 5000 });
    expect(tail).toMatchObject({ bytes: 10, totalBytes: 1000 });
    expect((await readAll(tail!.stream)).equals(all.subarray(990))).toBe(true);
    await expect(storage.open("ranged", { start: 1000, end: 1001 })).rejects.toThrow(RangeError);
    await expect(storage.open("ranged", { start: 5, end: 4 })).rejects.toThrow(RangeError);
    await expect(storage.open("ranged", { start: -1, end: 4 })).rejects.toThrow(RangeError);
  });

  test("an empty file is a file", async () => {
    const storage = backend.make(MiB);
    await storage.put("empty", Readable.from([]), meta);
    const file = await storage.open("empty");
    expect(file).toMatchObject({ bytes: 0, totalBytes: 0 });
    expect((await readAll(file!.stream)).length).toBe(0);
  });

  test("delete removes a file; deleting a missing one is fine", async () => {
    const storage = backend.make(MiB);
    await storage.put("gone/soon", bytes(5000), meta);
    await storage.put("stays", bytes(7000), meta);
    await storage.delete("gone/soon");
    await storage.delete("gone/soon");
    await storage.delete("never-was");
    expect(await storage.open("gone/soon")).toBeNull();
    expect(await exists(storage, "stays")).toBe(true);
    expect(await storage.usedBytes()).toBe(7000);
  });

  test("deleteOlderThan removes exactly the files stored before the cutoff", async () => {
    const storage = backend.make(MiB);
    await storage.put("old/a", bytes(1000), meta);
    await storage.put("old/b", bytes(1000), meta);
    await sleep(30);
    const cutoff = new Date();
    await sleep(30);
    await storage.put("new/c", bytes(2000), meta);
    expect(await storage.deleteOlderThan(cutoff)).toBe(2);
    expect(await storage.open("old/a")).toBeNull();
    expect(await storage.open("old/b")).toBeNull();
    expect(await exists(storage, "new/c")).toBe(true);
    expect(await storage.usedBytes()).toBe(2000);
    expect(await storage.deleteOlderThan(cutoff)).toBe(0);
  });

  test.each(["../escape", "a/../../escape", "/etc/passwd", "a//b", "a/", "Upper", "a.b", "a\\b", "", "a b", "%2e%2e/x", "a\0b"])(
    "the key %j is refused before anything is touched",
    async (key) => {
      const storage = backend.make(MiB);
      await expect(storage.put(key, bytes(10), meta)).rejects.toThrow(TypeError);
      await expect(storage.open(key)).rejects.toThrow(TypeError);
      await expect(storage.delete(key)).rejects.toThrow(TypeError);
      expect(await storage.usedBytes()).toBe(0);
    },
  );

  test("metadata is checked", async () => {
    const storage = backend.make(MiB);
    await expect(storage.put("m", bytes(10), { contentType: "", filename: "x" })).rejects.toThrow(/contentType/);
    await expect(storage.put("m", bytes(10), { contentType: "video/mp4", filename: "a\r\nb" })).rejects.toThrow(/filename/);
    expect(await storage.open("m")).toBeNull();
  });

  test("a body that breaks off leaves nothing under the key, nor half of it", async () => {
    const storage = backend.make(100 * MiB);
    await expect(storage.put("broken", bytes(9 * MiB, { failAfter: 6 * MiB }), meta)).rejects.toThrow("the source broke off");
    expect(await storage.open("broken")).toBeNull();
    expect(await storage.usedBytes()).toBe(0);
    expect(await backend.leftovers()).toEqual([]);
  });

  test("a stream that fails before it is read fails the write, not the process", async () => {
    const storage = backend.make(MiB);
    const source = new Readable({ read() {} });
    setImmediate(() => source.destroy(new Error("the source failed early")));
    await expect(storage.put("early", source, meta)).rejects.toThrow("the source failed early");
    expect(await exists(storage, "early")).toBe(false);
    expect(await backend.leftovers()).toEqual([]);
  });

  test("a new file under a key replaces the old one", async () => {
    const storage = backend.make(MiB);
    await storage.put("again", bytes(1000, { seed: 1 }), meta);
    await storage.put("again", bytes(500, { seed: 7 }), { contentType: "audio/mpeg", filename: "b.mp3" });
    const file = await storage.open("again");
    expect(file).toMatchObject({ bytes: 500, contentType: "audio/mpeg", filename: "b.mp3" });
    expect((await readAll(file!.stream)).equals(expected(500, 7))).toBe(true);
  });

  describe("the cap", () => {
    test("a file that would pass it stops, is removed, and fails with the catalogue's message", async () => {
      const storage = backend.make(MiB);
      let read = 0;
      const error = await storage.put("too-big", bytes(3 * MiB, { onPiece: () => (read += 64 * 1024) }), meta).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobStorageError);
      expect(error).toMatchObject({ code: "job.storage_full", status: 503, message: "Our file storage is full right now. Please try again later." });
      // it stopped reading at the cap, not at the end of the body
      // (a stream reads a piece or two ahead)
      expect(read).toBeLessThanOrEqual(MiB + 4 * 64 * 1024);
      expect(await storage.open("too-big")).toBeNull();
      expect(await storage.usedBytes()).toBe(0);
      expect(logged).toContainEqual(["warn", expect.stringMatching(/^job storage full: the file would pass the cap/)]);
      expect(await backend.leftovers()).toEqual([]);
    });

    test("a file that fits exactly is kept; when the store is full the next write is refused before a byte is read", async () => {
      const storage = backend.make(100_000);
      await storage.put("exact", bytes(100_000, { piece: 10_000 }), meta);
      expect(await storage.usedBytes()).toBe(100_000);
      let read = 0;
      await expect(storage.put("one-more", bytes(10, { onPiece: () => read++ }), meta)).rejects.toMatchObject({ code: "job.storage_full" });
      expect(read).toBe(0);
      await storage.delete("exact");
      await storage.put("one-more", bytes(10), meta);
      expect(await storage.usedBytes()).toBe(10);
    });

    test("two writes at once cannot pass it together", async () => {
      const storage = backend.make(MiB);
      const size = Math.floor(0.6 * MiB);
      const results = await Promise.allSettled([
        storage.put("first", bytes(size, { piece: 16 * 1024, seed: 1 }), meta),
        storage.put("second", bytes(size, { piece: 16 * 1024, seed: 2 }), meta),
      ]);
      const kept = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(kept).toHaveLength(1);
      expect(refused).toHaveLength(1);
      expect(refused[0]!.reason).toMatchObject({ code: "job.storage_full" });
      expect(await storage.usedBytes()).toBe(size);
      expect([await exists(storage, "first"), await exists(storage, "second")].filter(Boolean)).toHaveLength(1);
      expect(await backend.leftovers()).toEqual([]);
    });

    test("another instance's files count (a fresh count at each write)", async () => {
      const one = backend.make(MiB);
      const other = backend.make(MiB);
      await other.put("from-other", bytes(900_000), meta);
      await expect(one.put("mine", bytes(200_000), meta)).rejects.toMatchObject({ code: "job.storage_full" });
      await other.delete("from-other");
      await one.put("mine", bytes(200_000), meta);
    });
  });
});

test("options come from the configuration: the disk by default, the bucket with the S3_* group, the cap in MiB", () => {
  const disk = jobStorageOptionsFrom(loadConfig({ DATA_DIR: "/srv/data" }), logger);
  expect(disk).toMatchObject({ dataDir: "/srv/data", maxBytes: 2048 * MiB, s3: undefined });
  const bucket = jobStorageOptionsFrom(
    loadConfig({ JOB_STORAGE_MAX_MB: "10", S3_ENDPOINT: "http://127.0.0.1:9000", S3_BUCKET: "jobs", S3_REGION: "auto", S3_ACCESS_KEY_ID: "k", S3_SECRET_ACCESS_KEY: "s" }),
    logger,
  );
  expect(bucket).toMatchObject({ maxBytes: 10 * MiB, s3: { endpoint: "http://127.0.0.1:9000", bucket: "jobs", region: "auto", accessKeyId: "k", secretAccessKey: "s" } });
  expect(createJobStorage(bucket).kind).toBe("s3");
  expect(createJobStorage(disk).kind).toBe("local");
  expect(() => createJobStorage({ ...disk, maxBytes: 0 })).toThrow(/maxBytes/);
});

describe("job storage on the local disk, specifically", () => {
  afterEach(() => local.reset());

  test("files live under DATA_DIR/files with their metadata beside them", async () => {
    const storage = local.make(MiB);
    await storage.put("job-9/result", bytes(123), meta);
    expect((await filesUnder(join(dataDir, "files"))).sort()).toEqual(["job-9/result.data", "job-9/result.json"]);
    expect((await stat(join(dataDir, "files", "job-9", "result.data"))).size).toBe(123);
    await storage.delete("job-9/result");
    // the emptied job folder goes too
    expect(await readdir(join(dataDir, "files"))).toEqual([]);
  });

  test("a process killed in the middle of a write leaves no visible file; the sweep removes its leftover", async () => {
    const script = `
      import { createJobStorage } from ${JSON.stringify(new URL("./job-storage.ts", import.meta.url).pathname)};
      const storage = createJobStorage({ dataDir: ${JSON.stringify(dataDir)}, maxBytes: 1 << 30, logger: console });
      async function* body() {
        for (let i = 0; ; i++) {
          yield Buffer.alloc(64 * 1024, i);
          if (i === 16) process.stdout.write("writing\\n");
          await new Promise((r) => setTimeout(r, 5));
        }
      }
      await storage.put("crashed/out", body(), { contentType: "video/mp4", filename: "a.mp4" });
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("writing") && resolve());
      child.on("exit", (code) => reject(new Error(`the writer exited early (${code})`)));
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    const storage = local.make(MiB);
    const left = await filesUnder(join(dataDir, "files"));
    expect(left.some((f) => f.endsWith(".part"))).toBe(true);
    expect(left.filter((f) => !f.endsWith(".part"))).toEqual([]);
    expect(await storage.open("crashed/out")).toBeNull();
    // a half file is not a stored file
    expect(await storage.usedBytes()).toBe(0);
    await sleep(20);
    expect(await storage.deleteOlderThan(new Date())).toBe(0);
    expect(await filesUnder(join(dataDir, "files"))).toEqual([]);
  });

  test("a refused key writes nothing outside the storage folder", async () => {
    const storage = local.make(MiB);
    const before = await readdir(dataDir);
    await expect(storage.put("../outside", bytes(10), meta)).rejects.toThrow(TypeError);
    expect(await readdir(dataDir)).toEqual(before);
  });
});

describe("job storage in an S3 bucket, specifically", () => {
  afterEach(() => s3.reset());

  test("a small file is one PutObject; a large one is uploaded in parts", async () => {
    const storage = s3.make(100 * MiB);
    await storage.put("small", bytes(1000), meta);
    expect(fake.calls.filter((c) => c !== "ListObjectsV2")).toEqual(["PutObject"]);
    fake.calls.length = 0;
    await storage.put("large", bytes(17 * MiB, { piece: 512 * 1024 }), meta);
    expect(fake.calls.filter((c) => c !== "ListObjectsV2")).toEqual(["CreateMultipartUpload", "UploadPart", "UploadPart", "UploadPart", "CompleteMultipartUpload"]);
    const stored = fake.objects.get("files/large")!;
    expect(stored.body.length).toBe(17 * MiB);
    expect(stored.contentType).toBe("video/mp4");
    expect(decodeURIComponent(stored.metadata.filename!)).toBe(meta.filename);
  });

  test("a part the bucket refuses aborts the upload: no object, no unfinished upload", async () => {
    const storage = s3.make(100 * MiB);
    fake.failing.add("UploadPart");
    await expect(storage.put("refused", bytes(9 * MiB, { piece: 512 * 1024 }), meta)).rejects.toThrow();
    expect(fake.calls).toContain("AbortMultipartUpload");
    expect(fake.objects.has("files/refused")).toBe(false);
    expect(fake.uploads.size).toBe(0);
  });

  test("the cap passed in the middle of a multipart upload aborts it", async () => {
    const storage = s3.make(10 * MiB);
    await expect(storage.put("over", bytes(20 * MiB, { piece: 512 * 1024 }), meta)).rejects.toMatchObject({ code: "job.storage_full" });
    expect(fake.calls).toContain("UploadPart");
    expect(fake.calls).toContain("AbortMultipartUpload");
    expect(fake.uploads.size).toBe(0);
    expect(fake.objects.size).toBe(0);
  });

  test("listings are followed page by page", async () => {
    const storage = s3.make(MiB);
    for (let i = 0; i < 5; i++) await storage.put(`paged/f${i}`, bytes(100), meta);
    fake.pageSize = 2;
    expect(await storage.usedBytes()).toBe(500);
    expect(await storage.deleteOlderThan(new Date(Date.now() + 1000))).toBe(5);
    expect(fake.objects.size).toBe(0);
  });

  test("the sweep aborts uploads a crash left unfinished", async () => {
    const storage = s3.make(MiB);
    fake.uploads.set("stale", { key: "files/crashed", contentType: "video/mp4", metadata: {}, initiated: new Date(Date.now() - 3600_000), parts: new Map() });
    fake.uploads.set("running", { key: "files/running", contentType: "video/mp4", metadata: {}, initiated: new Date(), parts: new Map() });
    await storage.deleteOlderThan(new Date(Date.now() - 60_000));
    expect([...fake.uploads.keys()]).toEqual(["running"]);
  });

  test("the fake refuses unsigned requests, as S3 does", async () => {
    const res = await fetch(`${fake.endpoint}/${fake.bucket}/files/x`);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("AccessDenied");
  });
});
