/**
 * The H.264 decoder configuration (`avcC`) of an MP4's video track, given every parameter set its
 * samples use (docs/decisions/072). An exact clip's re-encoded first and last pictures refer to
 * parameter sets of their own (other ids than the source's); an `avc1` track must list them all in
 * its sample description, while ffmpeg writes only the ones it met first.
 */
import { NAL } from "./mpegts.ts";

interface Box {
  type: string;
  start: number;
  end: number;
}

function boxesIn(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  for (let at = from; at + 8 <= to; ) {
    const size = buf.readUInt32BE(at);
    if (size < 8 || at + size > to) break;
    out.push({ type: buf.toString("latin1", at + 4, at + 8), start: at, end: at + size });
    at += size;
  }
  return out;
}

/** Where each box on the path to the video track's avcC starts, outermost first; null when there is none. */
function avccPath(buf: Buffer, moov: Box): Box[] | null {
  for (const trak of boxesIn(buf, moov.start + 8, moov.end).filter((b) => b.type === "trak")) {
    const path: Box[] = [moov, trak];
    let parent = trak;
    for (const type of ["mdia", "minf", "stbl", "stsd"]) {
      const next = boxesIn(buf, parent.start + 8, parent.end).find((b) => b.type === type);
      if (!next) break;
      path.push(next);
      parent = next;
    }
    if (parent.type !== "stsd") continue;
    // stsd: full box header and entry count, then the sample entries; avc1's children follow its 78 bytes of fields
    const entry = boxesIn(buf, parent.start + 16, parent.end).find((b) => b.type === "avc1");
    const avcc = entry && boxesIn(buf, entry.start + 86, entry.end).find((b) => b.type === "avcC");
    if (entry && avcc) return [...path, entry, avcc];
  }
  return null;
}

/** The record with `extra` added to its SPS and PPS lists (those it holds already are kept once). */
export function avccWith(record: Buffer, extra: readonly Buffer[]): Buffer {
  const sps: Buffer[] = [];
  const pps: Buffer[] = [];
  let at = 5;
  const spsCount = record[at++]! & 0x1f;
  for (let i = 0; i < spsCount; i++, at += 2 + record.readUInt16BE(at)) sps.push(record.subarray(at + 2, at + 2 + record.readUInt16BE(at)));
  const ppsCount = record[at++]!;
  for (let i = 0; i < ppsCount; i++, at += 2 + record.readUInt16BE(at)) pps.push(record.subarray(at + 2, at + 2 + record.readUInt16BE(at)));
  const tail = record.subarray(at); // High profile's chroma and bit depth fields
  for (const nal of extra) {
    const list = (nal[0]! & 0x1f) === NAL.sps ? sps : (nal[0]! & 0x1f) === NAL.pps ? pps : null;
    if (list && !list.some((known) => known.equals(nal))) list.push(nal);
  }
  const entries = (list: Buffer[]) => list.flatMap((nal) => [Buffer.from([nal.length >> 8, nal.length & 0xff]), nal]);
  return Buffer.concat([record.subarray(0, 5), Buffer.from([0xe0 | sps.length]), ...entries(sps), Buffer.from([pps.length]), ...entries(pps), tail]);
}

/**
 * The head of a fragmented MP4 (its ftyp and moov, as far as `moovEnd`) with `extra` parameter
 * sets in the video track's avcC, every enclosing box's size grown to match. The fragments that
 * follow count their data from their own moof, so nothing else moves. Null: no avcC to add to.
 */
export function withParameterSets(head: Buffer, moov: { start: number; end: number }, extra: readonly Buffer[]): Buffer | null {
  const path = avccPath(head, { type: "moov", ...moov });
  if (!path) return null;
  const avcc = path.at(-1)!;
  const record = avccWith(head.subarray(avcc.start + 8, avcc.end), extra);
  const grown = record.length - (avcc.end - avcc.start - 8);
  const out = Buffer.concat([head.subarray(0, avcc.start + 8), record, head.subarray(avcc.end)]);
  for (const box of path) out.writeUInt32BE(box.end - box.start + grown, box.start);
  return out;
}
