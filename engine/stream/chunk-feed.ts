/**
 * One chunk's body into the ranged reader's Readable: bytes before the offset skipped and past
 * the end trimmed (the cursor), the socket paused while the Readable is full, the connection's
 * rate measured without the pauses. It says how the chunk ended; what comes next is the reader's
 * decision (ranged-reader.ts). Push-based on purpose: an async-generator version was slower on
 * fast links.
 */
import type { ByteCursor } from "./byte-cursor.ts";
import { createConnectionRate, type ConnectionRate } from "./connection-rate.ts";
import type { RangeChunk } from "./range-request.ts";

export interface ChunkFeedEvents {
  /** pushes bytes on; false = the consumer is full, the feed pauses the body */
  push(buf: Buffer): boolean;
  /** bytes arrived (a failure after this is a new one, not the same again) */
  progressed(): void;
  /** every byte wanted has arrived: the chunk was let go (destroyed, in case the upstream sends more) */
  complete(): void;
  /** the body ended; the chunk is let go. `cursor.endedEarly(chunk.expect)` tells a cut from a whole chunk */
  ended(chunk: RangeChunk): void;
  /** the body failed, or closed without ending; the chunk is destroyed */
  failed(chunk: RangeChunk, err: Error): void;
}

export class ChunkFeed {
  private chunk: RangeChunk | null = null;
  /** the delivering connection's rate (null while nothing, or parallel parts, deliver) */
  private measured: ConnectionRate | null = null;

  constructor(
    private readonly cursor: ByteCursor,
    private readonly on: ChunkFeedEvents,
  ) {}

  /** the chunk being delivered */
  get current(): RangeChunk | null {
    return this.chunk;
  }

  /** the rate of the connection delivering now, or of the last one to deliver */
  get rate(): ConnectionRate | null {
    return this.measured;
  }

  /** Starts delivering `chunk` (its rate is measured unless it is made of parallel parts). */
  attach(chunk: RangeChunk, measure = true): void {
    this.chunk = chunk;
    this.measured = measure ? createConnectionRate(performance.now()) : null;
    this.cursor.begin(chunk.skip);
    const body = chunk.body;
    body.on("data", this.onData);
    body.once("end", this.onEnd);
    body.once("error", this.onError);
    // A socket closed without 'end' (and without an error) is a cut too.
    body.once("close", () => {
      if (this.chunk === chunk && !body.readableEnded) this.onError(new Error("upstream closed the connection"));
    });
  }

  /** The consumer wants more: the paused body flows again. */
  resume(): void {
    this.measured?.resume(performance.now());
    this.chunk?.body.resume();
  }

  /** Lets the current chunk go (destroying its body unless it ended). */
  detach(destroyBody: boolean): RangeChunk | null {
    const chunk = this.chunk;
    this.chunk = null;
    if (!chunk) return null;
    const body = chunk.body;
    body.off("data", this.onData);
    body.off("end", this.onEnd);
    body.off("error", this.onError);
    if (destroyBody && !body.destroyed && !body.readableEnded) body.destroy();
    return chunk;
  }

  private readonly onData = (piece: Buffer): void => {
    const buf = this.cursor.take(piece);
    if (buf === null) return;
    if (buf.length > 0) {
      this.on.progressed();
      this.measured?.bytes(buf.length);
      if (!this.on.push(buf) && this.chunk) {
        this.chunk.body.pause();
        this.measured?.pause(performance.now());
      }
    }
    if (this.cursor.complete && this.chunk) {
      // everything wanted has arrived (an upstream ignoring Range may have more): stop here
      this.detach(true);
      this.on.complete();
    }
  };

  private readonly onEnd = (): void => {
    const chunk = this.detach(false);
    if (chunk) this.on.ended(chunk);
  };

  private readonly onError = (err: Error): void => {
    const chunk = this.detach(true);
    if (chunk) this.on.failed(chunk, err);
  };
}
