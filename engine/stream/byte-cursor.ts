/**
 * Where a ranged read stands, byte for byte: the next byte wanted (`pos`) and, for the chunk
 * being delivered, the bytes to skip at its start (an upstream that answered from earlier than
 * asked) and the bytes received of it. Every byte handed on moves `pos`, so a cut chunk resumes
 * at exactly the byte that did not arrive, and nothing past the last byte wanted is delivered.
 * `target.end` may be learned while reading (the first answer tells the size): it is read live.
 */
export class ByteCursor {
  private skip = 0;
  /** bytes of the current chunk handed on */
  received = 0;

  constructor(
    public pos: number,
    private readonly target: { readonly end: number | null },
  ) {}

  /** a new chunk starts delivering; its first `skip` bytes come before `pos` */
  begin(skip: number): void {
    this.skip = skip;
    this.received = 0;
  }

  /** The wanted part of `piece`, the position moved past it; null when all of it was skipped. */
  take(piece: Buffer): Buffer | null {
    let buf = piece;
    if (this.skip > 0) {
      if (buf.length <= this.skip) {
        this.skip -= buf.length;
        return null;
      }
      buf = buf.subarray(this.skip);
      this.skip = 0;
    }
    const end = this.target.end;
    if (end !== null && this.pos + buf.length > end + 1) buf = buf.subarray(0, Math.max(0, end + 1 - this.pos));
    this.pos += buf.length;
    this.received += buf.length;
    return buf;
  }

  /** every byte wanted has been handed on */
  get complete(): boolean {
    return this.target.end !== null && this.pos > this.target.end;
  }

  /** the current chunk ended before the `expect` bytes it promised */
  endedEarly(expect: number | null): boolean {
    return expect !== null && this.received < expect;
  }
}
