/**
 * Just enough MPEG-TS to cut an H.264 stream at its IDR frames and join encoded and copied parts
 * (docs/decisions/072): packets of 188 bytes, the video PES units they carry with their times,
 * the NAL units at a unit's start, and continuity counters kept running across the joins.
 */

export const TS_PACKET_BYTES = 188;
const SYNC = 0x47;
/** MPEG-TS times tick at 90 kHz */
export const TS_CLOCK = 90_000;

/** H.264 NAL unit types this module looks for */
export const NAL = { idr: 5, sps: 7, pps: 8 } as const;

export const packetPid = (p: Buffer): number => ((p[1]! & 0x1f) << 8) | p[2]!;
const unitStart = (p: Buffer): boolean => (p[1]! & 0x40) !== 0;
const hasPayload = (p: Buffer): boolean => (p[3]! & 0x10) !== 0;

function payloadOf(p: Buffer): Buffer {
  if (!hasPayload(p)) return p.subarray(TS_PACKET_BYTES);
  const adaptation = (p[3]! & 0x20) !== 0;
  const from = adaptation ? 5 + p[4]! : 4;
  return p.subarray(Math.min(from, TS_PACKET_BYTES));
}

/** Cuts a byte stream into whole TS packets; a stream that loses its sync byte is not TS. */
export class PacketReader {
  private rest: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    const buf = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    const out: Buffer[] = [];
    let at = 0;
    for (; at + TS_PACKET_BYTES <= buf.length; at += TS_PACKET_BYTES) {
      if (buf[at] !== SYNC) throw new Error(`MPEG-TS lost its sync at byte ${at}`);
      out.push(buf.subarray(at, at + TS_PACKET_BYTES));
    }
    this.rest = Buffer.from(buf.subarray(at));
    return out;
  }

  /** bytes left over at the end: a stream that ends mid-packet was cut short */
  get leftover(): number {
    return this.rest.length;
  }
}

/** A 33-bit PES time at `o` (PTS or DTS). */
function pesTime(b: Buffer, o: number): number {
  return (b[o]! & 0x0e) * 536870912 + b[o + 1]! * 4194304 + (b[o + 2]! >> 1) * 32768 + b[o + 3]! * 128 + (b[o + 4]! >> 1);
}

/** One video frame as the TS carries it: its packets, its times (90 kHz) and what its first NAL units say. */
export interface VideoUnit {
  /** the video PID's packets, with the tables (PAT, PMT) that came before them */
  packets: Buffer[];
  pid: number;
  pts: number;
  dts: number;
  /** an IDR frame: nothing after it in decoding order refers to anything before it */
  idr: boolean;
  /** the SPS and PPS NAL units it carries in band (an IDR's, usually) */
  parameterSets: Buffer[];
  bytes: number;
}

/** One PES of another elementary stream (the audio), whole. */
export interface OtherPes {
  packets: Buffer[];
  pts: number;
}

/**
 * Groups a TS stream's packets into the video PID's PES units, and the other elementary streams'
 * (audio) into their own PES. Tables (PAT, PMT, SDT) go with the video unit they come before; a
 * unit or PES is complete when the next one of its PID starts.
 */
export class VideoUnitReader {
  private videoPid: number | null = null;
  private pending: Buffer[] = [];
  private current: Buffer[] | null = null;
  private others = new Map<number, Buffer[]>();
  /** other streams' PES completed since the last call */
  readonly otherPes: OtherPes[] = [];

  /** whole units completed by these packets */
  push(packets: Buffer[]): VideoUnit[] {
    const out: VideoUnit[] = [];
    for (const p of packets) {
      const pid = packetPid(p);
      const starts = unitStart(p);
      if (this.videoPid === null && starts && isVideoPes(payloadOf(p))) this.videoPid = pid;
      if (pid !== this.videoPid) {
        const open = this.others.get(pid);
        if (starts && isPes(payloadOf(p))) {
          if (open) this.otherPes.push(describePes(open));
          this.others.set(pid, [p]);
        } else if (open) {
          open.push(p);
        } else {
          (this.current ?? this.pending).push(p);
        }
        continue;
      }
      if (starts) {
        if (this.current) out.push(describeUnit(this.current, pid));
        this.current = [...this.pending, p];
        this.pending = [];
      } else {
        (this.current ?? this.pending).push(p);
      }
    }
    return out;
  }

  /** the last unit, at the stream's end (the other streams' last PES join `otherPes`) */
  flush(): VideoUnit | null {
    for (const open of this.others.values()) this.otherPes.push(describePes(open));
    this.others.clear();
    const last = this.current;
    this.current = null;
    return last && this.videoPid !== null ? describeUnit(last, this.videoPid) : null;
  }

  /** the other streams' PES completed so far, handed over once */
  takeOtherPes(): OtherPes[] {
    return this.otherPes.splice(0);
  }
}

const isPes = (payload: Buffer): boolean => payload.length >= 9 && payload[0] === 0 && payload[1] === 0 && payload[2] === 1;

function describePes(packets: Buffer[]): OtherPes {
  const pes = payloadOf(packets[0]!);
  return { packets, pts: pes[7]! >> 7 ? pesTime(pes, 9) : NaN };
}

/** a PES of a video stream (stream ids 0xE0–0xEF) */
function isVideoPes(payload: Buffer): boolean {
  return isPes(payload) && (payload[3]! & 0xf0) === 0xe0;
}

/** How much of a unit's start is read for its NAL units: the parameter sets and the first slice come first. */
const HEAD_BYTES = 8 * 1024;

function describeUnit(packets: Buffer[], pid: number): VideoUnit {
  const parts: Buffer[] = [];
  let length = 0;
  let bytes = 0;
  for (const p of packets) {
    bytes += p.length;
    if (packetPid(p) !== pid || length >= HEAD_BYTES) continue;
    const payload = payloadOf(p);
    parts.push(payload);
    length += payload.length;
  }
  const pes = Buffer.concat(parts, length);
  const flags = pes[7]! >> 6;
  const headerLength = pes[8]!;
  const pts = flags & 2 ? pesTime(pes, 9) : NaN;
  const dts = flags === 3 ? pesTime(pes, 14) : pts;
  const nals = nalUnits(pes.subarray(9 + headerLength));
  const firstSlice = nals.find((n) => (n[0]! & 0x1f) === 1 || (n[0]! & 0x1f) === NAL.idr);
  return {
    packets,
    pid,
    pts,
    dts,
    idr: firstSlice !== undefined && (firstSlice[0]! & 0x1f) === NAL.idr,
    parameterSets: nals.filter((n) => (n[0]! & 0x1f) === NAL.sps || (n[0]! & 0x1f) === NAL.pps).map((n) => Buffer.from(n)),
    bytes,
  };
}

/** The NAL units of an Annex B byte stream (start codes 00 00 01 / 00 00 00 01); the last may be cut off. */
export function nalUnits(b: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < b.length; i++) {
    if (b[i] === 0 && b[i + 1] === 0 && b[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((s, k) => {
    let end = k + 1 < starts.length ? starts[k + 1]! - 3 : b.length;
    while (end > s && b[end - 1] === 0) end--;
    return b.subarray(s, end);
  });
}

/**
 * Rewrites each packet's continuity counter so a PID's counters run on across the joined parts
 * (each part's muxer starts them at 0, which a demuxer reads as lost packets).
 */
export class ContinuityCounters {
  private last = new Map<number, number>();

  fix(p: Buffer): Buffer {
    const pid = packetPid(p);
    const previous = this.last.get(pid);
    // a packet without payload repeats the counter; one with payload counts on
    const next = previous === undefined ? p[3]! & 0x0f : hasPayload(p) ? (previous + 1) & 0x0f : previous;
    this.last.set(pid, next);
    if ((p[3]! & 0x0f) === next) return p;
    const copy = Buffer.from(p);
    copy[3] = (copy[3]! & 0xf0) | next;
    return copy;
  }
}
