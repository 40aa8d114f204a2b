/**
 * The PES headers that begin in a stretch of MPEG-TS (a segment's first bytes): each one's PID,
 * stream id and PTS (90 kHz, 33 bits), in the order they come. No PAT/PMT is needed: a PES stream
 * id of 0xE0–0xEF is video. Shared by the clip's start reading and the HLS subtitles' time zero.
 */
const PACKET = 188;
const SYNC = 0x47;

export interface PesHeader {
  pid: number;
  streamId: number;
  pts: number;
}

export const isVideoStreamId = (streamId: number) => streamId >= 0xe0 && streamId <= 0xef;

/** A PES header's 33-bit PTS, five bytes from `at`. */
function readPts(b: Buffer, at: number): number {
  return ((b[at]! >> 1) & 0x07) * 2 ** 30 + (((b[at + 1]! << 8) | b[at + 2]!) >> 1) * 2 ** 15 + (((b[at + 3]! << 8) | b[at + 4]!) >> 1);
}

/** Where the packets start: the first sync byte that another follows 188 bytes on; -1 when there is none. */
function firstPacket(buf: Buffer): number {
  let start = buf.indexOf(SYNC);
  while (start >= 0 && start + PACKET < buf.length && buf[start + PACKET] !== SYNC) start = buf.indexOf(SYNC, start + 1);
  return start >= 0 && start + PACKET < buf.length ? start : -1;
}

/** Every PES header with a PTS that starts in `buf`, up to the first packet out of step. */
export function* pesHeaders(buf: Buffer): Generator<PesHeader> {
  const start = firstPacket(buf);
  if (start < 0) return;
  for (let o = start; o + PACKET <= buf.length; o += PACKET) {
    if (buf[o] !== SYNC) return;
    const unitStart = (buf[o + 1]! & 0x40) !== 0;
    const control = (buf[o + 3]! >> 4) & 0x03;
    if (!unitStart || (control & 0x01) === 0) continue;
    // an adaptation field first: its length byte, then itself
    const p = o + 4 + (control & 0x02 ? 1 + buf[o + 4]! : 0);
    // a PES packet (a table's section starts with a pointer field instead): start code, stream id, length, flags, header length, PTS
    if (p + 14 > o + PACKET || buf[p] !== 0 || buf[p + 1] !== 0 || buf[p + 2] !== 1) continue;
    if ((buf[p + 7]! & 0x80) === 0) continue;
    yield { pid: ((buf[o + 1]! & 0x1f) << 8) | buf[o + 2]!, streamId: buf[p + 3]!, pts: readPts(buf, p + 9) };
  }
}
