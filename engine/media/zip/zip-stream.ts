/**
 * A ZIP archive written as a stream while its entries arrive (docs/decisions/046): each entry's
 * bytes pass straight through, so memory does not grow with the size of the files, and only the
 * central directory records (46 bytes per entry plus the name) wait for the end. The
 * output is a Readable with backpressure: an entry's source is read only as fast as the
 * consumer takes the archive.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { EntryNames } from "./entry-names.ts";
import {
  dosDateTime,
  encodeCentralRecord,
  encodeDescriptor,
  encodeEndRecords,
  encodeLocalHeader,
  usesZip64Descriptor,
} from "./zip-records.ts";

export type ZipEntrySource = Readable | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | Uint8Array;

export interface ZipEntryOptions {
  /** the file's modification time (default: now) */
  mtime?: Date;
  /**
   * The entry's exact size when known in advance (what `zipSize` was given). Bytes beyond it are
   * not written and a source that ends short fails the entry, so the archive never outgrows the
   * size announced for it.
   */
  size?: number;
  /** take the reserved name exactly (see `reservedNames`) instead of a unique one near it */
  reserved?: boolean;
}

export interface ZipEntryResult {
  /** the name in the archive (made safe and unique) */
  name: string;
  /** bytes of the entry's data written */
  bytes: number;
  crc32: number;
  /** hex SHA-256 of the data written */
  sha256: string;
}

/**
 * An entry whose source failed, or whose size differed from the declared one. The entry is
 * still closed properly (the archive stays valid) and holds the bytes received before the
 * failure, described in `entry`; `cause` is the source's error.
 */
export class ZipEntryError extends Error {
  constructor(
    readonly entry: ZipEntryResult,
    cause: unknown,
  ) {
    super(`ZIP entry "${entry.name}" ended after ${entry.bytes} bytes: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "ZipEntryError";
  }
}

export interface ZipStreamOptions {
  /** names only an entry added with `{ reserved: true }` may take, e.g. "manifest.csv" */
  reservedNames?: Iterable<string>;
  /** bytes the output buffers before it stops reading sources (default: 64 KiB) */
  highWaterMark?: number;
  /** the default modification time (tests pass a fixed clock) */
  now?: () => Date;
  /**
   * Called once, when the consumer first asks for bytes (it pipes, listens for data or reads):
   * an archive whose entries are made on demand starts making them then, and a reader that never
   * reads (a HEAD request) costs nothing.
   */
  onFirstRead?: () => void;
}

export interface ZipStream {
  /** the archive's bytes; errors with the reason when aborted */
  readonly output: Readable;
  /** bytes handed to `output` so far */
  readonly bytesWritten: number;
  /**
   * Adds an entry after the ones already added; resolves when its last byte has been handed to
   * the output. Rejects with a ZipEntryError when the source fails (the archive stays usable) and
   * with the abort reason when the archive is aborted.
   */
  addEntry(name: string, source: ZipEntrySource, options?: ZipEntryOptions): Promise<ZipEntryResult>;
  /** writes the central directory after the last added entry and ends the output */
  finish(): Promise<{ bytes: number; entries: number }>;
  /** ends the output with `reason` as its error; pending entries reject with it; idempotent */
  abort(reason: Error): void;
}

/** the output Readable: `_read` is the consumer asking for more, which wakes the writer */
class ZipOutput extends Readable {
  private wake: (() => void) | null = null;
  /** called once, at the consumer's first demand */
  onFirstRead: (() => void) | null = null;

  override _read(): void {
    const first = this.onFirstRead;
    this.onFirstRead = null;
    first?.();
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /** resolves when the consumer wants more */
  demand(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }
}

function iterate(source: ZipEntrySource): AsyncIterator<Uint8Array | string> | Iterator<Uint8Array | string> {
  if (source instanceof Uint8Array) return [source][Symbol.iterator]();
  return Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
}

/** lets go of a source that will not be read to its end (a Readable's upstream is closed) */
function stop(source: ZipEntrySource, iterator: AsyncIterator<unknown> | Iterator<unknown>): void {
  if (source instanceof Readable) source.destroy();
  else void Promise.resolve(iterator.return?.()).catch(() => {});
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === "string") return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new TypeError("A ZIP entry's source must yield bytes.");
}

/**
 * The central directory waits in memory until the end. Records are packed into blocks of this
 * size: one Buffer object per entry would cost more than the record itself.
 */
const CENTRAL_BLOCK_BYTES = 64 * 1024;

class CentralDirectory {
  private blocks: Buffer[] = [];
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  count = 0;

  add(record: Buffer): void {
    this.pending.push(record);
    this.pendingBytes += record.length;
    this.count++;
    if (this.pendingBytes >= CENTRAL_BLOCK_BYTES) this.seal();
  }

  /** the records in blocks, in order; empties the directory */
  take(): Buffer[] {
    this.seal();
    const blocks = this.blocks;
    this.blocks = [];
    return blocks;
  }

  private seal(): void {
    if (this.pendingBytes === 0) return;
    this.blocks.push(Buffer.concat(this.pending, this.pendingBytes));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

export function createZipStream(options: ZipStreamOptions = {}): ZipStream {
  const output = new ZipOutput({ highWaterMark: options.highWaterMark ?? 64 * 1024 });
  output.onFirstRead = options.onFirstRead ?? null;
  const names = new EntryNames(options.reservedNames);
  const now = options.now ?? (() => new Date());
  const central = new CentralDirectory();
  let offset = 0;
  let failure: Error | null = null;
  let finishing: Promise<{ bytes: number; entries: number }> | null = null;
  let ended = false;
  // entries run one after another; each waits for the one added before it
  let queue: Promise<unknown> = Promise.resolve();
  // what the writer is waiting for (a source's next chunk, the consumer's demand) rejects when
  // the archive is aborted. One waiter at a time, not a race against one long-lived promise:
  // that would keep a reaction per chunk until the end.
  const waiters = new Set<(reason: Error) => void>();
  const queuedSources = new Set<ZipEntrySource>();

  const untilAborted = <T>(pending: Promise<T> | T): Promise<T> => {
    if (failure) return Promise.reject(failure);
    return new Promise<T>((resolve, reject) => {
      waiters.add(reject);
      Promise.resolve(pending).then(
        (value) => {
          waiters.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          waiters.delete(reject);
          reject(error);
        },
      );
    });
  };

  const fail = (reason: Error) => {
    if (failure || ended) return;
    failure = reason;
    for (const reject of waiters) reject(reason);
    waiters.clear();
    for (const source of queuedSources) if (source instanceof Readable) source.destroy();
    queuedSources.clear();
    central.take();
    if (!output.destroyed) output.destroy(reason);
  };
  const closedEarly = () => new Error("The ZIP output was closed before the archive ended.");
  // the consumer went away (a client closed the connection): stop reading every source
  output.once("close", () => fail(closedEarly()));

  const write = async (chunk: Buffer) => {
    if (output.destroyed) fail(closedEarly());
    if (failure) throw failure;
    if (chunk.length === 0) return;
    offset += chunk.length;
    if (!output.push(chunk)) await untilAborted(output.demand());
  };

  const writeEntry = async (name: string, nameBytes: Buffer, source: ZipEntrySource, entryOptions: ZipEntryOptions): Promise<ZipEntryResult> => {
    queuedSources.delete(source);
    if (failure) throw failure;
    const declared = entryOptions.size;
    const zip64 = usesZip64Descriptor(declared);
    const when = dosDateTime(entryOptions.mtime ?? now());
    const start = offset;
    await write(encodeLocalHeader({ name: nameBytes, when, zip64 }));

    let crc = 0;
    let bytes = 0;
    const hash = createHash("sha256");
    let sourceError: unknown = null;
    const iterator = iterate(source);
    try {
      for (;;) {
        const step = await untilAborted(iterator.next());
        if (step.done) break;
        let chunk = toBuffer(step.value);
        const over = declared !== undefined && bytes + chunk.length > declared;
        if (over) chunk = chunk.subarray(0, declared - bytes);
        crc = crc32(chunk, crc);
        hash.update(chunk);
        bytes += chunk.length;
        await write(chunk);
        if (over) {
          sourceError = new Error(`The entry is longer than its declared ${declared} bytes.`);
          break;
        }
      }
    } catch (error) {
      if (failure) {
        stop(source, iterator);
        throw failure;
      }
      sourceError = error;
    }
    if (sourceError !== null) stop(source, iterator);
    else if (declared !== undefined && bytes !== declared) {
      sourceError = new Error(`The entry ended after ${bytes} of its declared ${declared} bytes.`);
    }

    await write(encodeDescriptor(crc, bytes, zip64));
    central.add(encodeCentralRecord({ name: nameBytes, when, crc, size: bytes, offset: start, zip64Local: zip64 }));
    const result = { name, bytes, crc32: crc, sha256: hash.digest("hex") };
    if (sourceError !== null) throw new ZipEntryError(result, sourceError);
    return result;
  };

  const writeEnd = async () => {
    if (failure) throw failure;
    const entries = central.count;
    const centralOffset = offset;
    for (const block of central.take()) await write(block);
    await write(encodeEndRecords(entries, offset - centralOffset, centralOffset));
    ended = true;
    output.push(null);
    return { bytes: offset, entries };
  };

  return {
    output,
    get bytesWritten() {
      return offset;
    },
    addEntry(wanted, source, entryOptions = {}) {
      if (failure) return Promise.reject(failure);
      if (finishing) return Promise.reject(new Error("The ZIP archive is finished: no entry can be added."));
      let name: string;
      try {
        name = names.take(wanted, { reserved: entryOptions.reserved });
      } catch (error) {
        return Promise.reject(error);
      }
      if (source instanceof Readable) queuedSources.add(source);
      const entry = queue.then(() => writeEntry(name, Buffer.from(name), source, entryOptions));
      queue = entry.catch(() => {});
      return entry;
    },
    finish() {
      finishing ??= queue.then(writeEnd);
      return finishing;
    },
    abort(reason) {
      fail(reason);
    },
  };
}
