/**
 * A chunked transfer-coded body (RFC 9112 §7.1) decoded as it arrives: data pieces are handed on
 * as views of the received buffers (no copy); chunk extensions and trailers are read and dropped.
 * A size line or trailer section past its bound, or bytes where CRLF belongs, is an error.
 */
import { ResponseHeadError } from "./response-head.ts";

const MAX_LINE = 4096;
const MAX_TRAILERS = 16 * 1024;

type State = "size" | "data" | "data-crlf" | "trailers" | "done";

export class ChunkedBody {
  private state: State = "size";
  private line = "";
  private remaining = 0;
  private trailerBytes = 0;

  get done(): boolean {
    return this.state === "done";
  }

  /**
   * Decodes `buf`, handing data to `out`; returns how many bytes of `buf` belong to the body
   * (fewer than its length only once the body is done).
   */
  feed(buf: Buffer, out: (piece: Buffer) => void): number {
    let i = 0;
    while (i < buf.length && this.state !== "done") {
      if (this.state === "data") {
        const n = Math.min(this.remaining, buf.length - i);
        out(buf.subarray(i, i + n));
        i += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = "data-crlf";
        continue;
      }
      // line-based states: read up to the next LF
      const lf = buf.indexOf(0x0a, i);
      const end = lf === -1 ? buf.length : lf + 1;
      this.line += buf.toString("latin1", i, end);
      i = end;
      if (this.line.length > (this.state === "trailers" ? MAX_TRAILERS : MAX_LINE)) throw new ResponseHeadError("chunked body: line too long");
      if (lf === -1) continue;
      if (!this.line.endsWith("\r\n")) throw new ResponseHeadError("chunked body: bare LF");
      const line = this.line.slice(0, -2);
      this.line = "";
      if (this.state === "data-crlf") {
        if (line !== "") throw new ResponseHeadError("chunked body: data longer than its size");
        this.state = "size";
      } else if (this.state === "size") {
        const size = /^([0-9a-fA-F]{1,12})[\t ]*(?:;.*)?$/.exec(line);
        if (!size) throw new ResponseHeadError(`chunked body: bad size line ${JSON.stringify(line.slice(0, 40))}`);
        this.remaining = parseInt(size[1]!, 16);
        this.state = this.remaining === 0 ? "trailers" : "data";
      } else {
        // trailers: dropped; the empty line ends the body
        this.trailerBytes += line.length + 2;
        if (this.trailerBytes > MAX_TRAILERS) throw new ResponseHeadError("chunked body: trailers too long");
        if (line === "") this.state = "done";
      }
    }
    return i;
  }
}
