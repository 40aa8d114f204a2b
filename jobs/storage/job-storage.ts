import type { Readable } from "node:stream";
import type { Logger } from "pino";
import { JOB_STORAGE_ERRORS } from "#common/error-catalogue.ts";
import { createLocalBackend } from "./local.ts";
import type { S3Options } from "./s3.ts";

/**
 * Where finished job output is kept (issue 30 §1): `DATA_DIR/files/`, or an S3-compatible
 * bucket when the S3_* variables are set. Both backends sit behind one interface and one cap
 * (`JOB_STORAGE_MAX_MB`): the bytes of every write are reserved as they arrive, so concurrent
 * writes can never pass the cap together, and a write that would pass it stops, removes what it
 * wrote and fails with `job.storage_full`.
 */

export interface FileMeta {
  /** the Content-Type the file is served with */
  contentType: string;
  /** the name the owner's browser saves it under (Content-Disposition) */
  filename: string;
}

/** Inclusive byte offsets, as in an HTTP Range header; `end` past the file is clamped. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface OpenedFile extends FileMeta {
  stream: Readable;
  /** bytes in `stream` (the range's length when a range was asked for) */
  bytes: number;
  /** the whole file's size (for Content-Range) */
  totalBytes: number;
  created: Date;
}

export interface JobStorage {
  /** Stores `body` under `key`; on any failure nothing is left under `key` (nor half of it). */
  put(key: string, body: Readable | AsyncIterable<Uint8Array>, meta: FileMeta): Promise<{ bytes: number }>;
  /** null when there is no such file; a RangeError when `range` starts past the end. */
  open(key: string, range?: ByteRange): Promise<OpenedFile | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file stored before `cutoff` (and leftovers of interrupted writes); returns how many files. */
  deleteOlderThan(cutoff: Date): Promise<number>;
  /** Bytes stored plus bytes of writes under way in this process. */
  usedBytes(): Promise<number>;
  readonly kind: "local" | "s3";
}

export interface JobStorageOptions {
  /** DATA_DIR; the local backend keeps files under `<dataDir>/files/` */
  dataDir: string;
  /** the cap (JOB_STORAGE_MAX_MB × 1 MiB) */
  maxBytes: number;
  /** set: keep files in this bucket instead */
  s3?: S3Options;
  logger: Pick<Logger, "info" | "warn">;
}

/** A storage failure with a catalogue code; the job runner shows `message` to the user. */
export class JobStorageError extends Error {
  readonly code: keyof typeof JOB_STORAGE_ERRORS;
  readonly status: number;
  constructor(code: keyof typeof JOB_STORAGE_ERRORS, opts: { detail?: string } = {}) {
    super(JOB_STORAGE_ERRORS[code].message);
    this.name = "JobStorageError";
    this.code = code;
    this.status = JOB_STORAGE_ERRORS[code].status;
    if (opts.detail) this.detail = opts.detail;
  }
  detail?: string;
}

function toBuffer(piece: unknown): Buffer {
  if (Buffer.isBuffer(piece)) return piece;
  if (piece instanceof Uint8Array) return Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
  if (typeof piece === "string") return Buffer.from(piece, "utf8");
  throw new TypeError("job storage: the body must yield bytes");
}

const KEY = /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)*$/;

/** Keys are lower-case letters, digits, `-`, `_` and `/` between non-empty parts: never a path escape. */
export function assertValidKey(key: unknown): asserts key is string {
  if (typeof key !== "string" || key.length > 512 || !KEY.test(key)) {
    throw new TypeError(`job storage key must be [a-z0-9_-] parts separated by "/" (got ${JSON.stringify(String(key).slice(0, 80))})`);
  }
}

function assertValidMeta(meta: FileMeta): void {
  // eslint-disable-next-line no-control-regex
  const control = /[\u0000-\u001f\u007f]/;
  if (typeof meta?.contentType !== "string" || !meta.contentType || meta.contentType.length > 255 || control.test(meta.contentType)) {
    throw new TypeError("job storage: contentType must be a non-empty header value of at most 255 characters");
  }
  if (typeof meta.filename !== "string" || !meta.filename || meta.filename.length > 255 || control.test(meta.filename)) {
    throw new TypeError("job storage: filename must be non-empty, at most 255 characters, without control characters");
  }
}

/** What a backend stores and reads; the cap and the checks live in createJobStorage. */
export interface StorageBackend {
  /** Writes every chunk, then makes the file visible under `key` at once; on a failure removes what it wrote and rethrows. */
  write(key: string, chunks: AsyncIterable<Buffer>, meta: FileMeta & { created: Date }): Promise<void>;
  open(key: string, range?: ByteRange): Promise<OpenedFile | null>;
  remove(key: string): Promise<void>;
  removeOlderThan(cutoff: Date): Promise<number>;
  /** bytes of the files stored now */
  scanBytes(): Promise<number>;
}

/**
 * The bucket's backend, imported on its first use: the AWS SDK it needs (~6 MB of heap) is never
 * loaded by a server that keeps files in DATA_DIR, nor before the first job file (docs/decisions/019).
 */
function lazyS3Backend(s3: S3Options): StorageBackend {
  let loaded: Promise<StorageBackend> | undefined;
  const backend = () => (loaded ??= import("./s3.ts").then((m) => m.createS3Backend(s3)));
  return {
    write: async (key, chunks, meta) => (await backend()).write(key, chunks, meta),
    open: async (key, range) => (await backend()).open(key, range),
    remove: async (key) => (await backend()).remove(key),
    removeOlderThan: async (cutoff) => (await backend()).removeOlderThan(cutoff),
    scanBytes: async () => (await backend()).scanBytes(),
  };
}

export function createJobStorage(opts: JobStorageOptions): JobStorage {
  if (!Number.isSafeInteger(opts.maxBytes) || opts.maxBytes <= 0) throw new TypeError("job storage: maxBytes must be a positive integer");
  const backend: StorageBackend = opts.s3 ? lazyS3Backend(opts.s3) : createLocalBackend(opts.dataDir);
  return createJobStorageOn(backend, opts.s3 ? "s3" : "local", opts.maxBytes, opts.logger);
}

/** The configuration's part that job storage reads (a structural slice of the app's config). */
export interface JobStorageEnv {
  DATA_DIR: string;
  JOB_STORAGE_MAX_MB: number;
  S3_ENDPOINT?: string;
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
}

/** Options from the parsed configuration: the bucket when the S3_* group is set (the config checks it is whole). */
export function jobStorageOptionsFrom(env: JobStorageEnv, logger: JobStorageOptions["logger"]): JobStorageOptions {
  const { S3_BUCKET: bucket, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const s3 = bucket && region && accessKeyId && secretAccessKey ? { endpoint: env.S3_ENDPOINT, bucket, region, accessKeyId, secretAccessKey } : undefined;
  return { dataDir: env.DATA_DIR, maxBytes: env.JOB_STORAGE_MAX_MB * 1024 * 1024, s3, logger };
}

/**
 * The cap over a backend. `stored` is the last count of stored bytes plus what this process has
 * committed since; `reserved` the bytes of writes under way. A fresh count at the start of each
 * write picks up other instances' files and deletions; it is dropped when a write of this process
 * committed or a delete ran meanwhile (it might have missed them), keeping the safe higher count.
 */
export function createJobStorageOn(backend: StorageBackend, kind: JobStorage["kind"], maxBytes: number, logger: JobStorageOptions["logger"]): JobStorage {
  let stored = 0;
  let reserved = 0;
  let generation = 0;

  async function recount(): Promise<void> {
    const seen = generation;
    const bytes = await backend.scanBytes();
    if (seen === generation) stored = bytes;
  }

  function full(key: string, detail: string): JobStorageError {
    // the operator's cue: raise JOB_STORAGE_MAX_MB (and the disk) or look for what fills it
    logger.warn({ key, storage: kind, maxBytes, storedBytes: stored, reservedBytes: reserved }, `job storage full: ${detail}`);
    return new JobStorageError("job.storage_full", { detail });
  }

  /** Counts the store afresh, then writes `body`, reserving its bytes as they arrive. */
  async function store(key: string, body: Readable | AsyncIterable<Uint8Array>, meta: FileMeta): Promise<{ bytes: number }> {
    await recount();
    if (stored + reserved >= maxBytes) {
      // the body is not read: let its producer stop
      (body as Partial<Readable>).destroy?.();
      throw full(key, `${stored + reserved} of ${maxBytes} bytes in use before the write`);
    }
    let mine = 0;
    let held = true;
    const release = () => {
      if (held) reserved -= mine;
      held = false;
    };
    async function* counted(): AsyncGenerator<Buffer> {
      try {
        for await (const piece of body) {
          const chunk = toBuffer(piece as unknown);
          if (stored + reserved + chunk.length > maxBytes) {
            throw full(key, `the file would pass the cap after ${mine} bytes`);
          }
          reserved += chunk.length;
          mine += chunk.length;
          yield chunk;
        }
      } catch (err) {
        // a failed write gives its room back at once, not after its cleanup
        release();
        throw err;
      }
    }
    try {
      await backend.write(key, counted(), { ...meta, created: new Date() });
    } catch (err) {
      release();
      (body as Partial<Readable>).destroy?.();
      throw err;
    }
    release();
    stored += mine;
    generation++;
    return { bytes: mine };
  }

  return {
    kind,
    async put(key, body, meta) {
      assertValidKey(key);
      assertValidMeta(meta);
      // a stream that fails while the store is counted must not take the process down with an
      // unheard "error": the failure is kept and surfaces when the body is read
      const stream = body as Partial<Readable>;
      const ignore = () => {};
      stream.on?.("error", ignore);
      try {
        return await store(key, body, meta);
      } finally {
        stream.off?.("error", ignore);
      }
    },
    async open(key, range) {
      assertValidKey(key);
      if (range !== undefined) {
        const { start, end } = range;
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
          throw new RangeError(`job storage: not a byte range: ${start}-${end}`);
        }
      }
      return backend.open(key, range);
    },
    async delete(key) {
      assertValidKey(key);
      generation++;
      await backend.remove(key);
      generation++;
    },
    async deleteOlderThan(cutoff) {
      if (!(cutoff instanceof Date) || Number.isNaN(cutoff.getTime())) throw new TypeError("job storage: cutoff must be a valid Date");
      generation++;
      const count = await backend.removeOlderThan(cutoff);
      generation++;
      if (count > 0) logger.info({ storage: kind, count, cutoff: cutoff.toISOString() }, "job storage: removed expired files");
      await recount();
      return count;
    },
    async usedBytes() {
      await recount();
      return stored + reserved;
    },
  };
}
