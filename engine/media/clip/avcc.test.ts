import { describe, expect, it } from "vitest";
import { avccWith, withParameterSets } from "./avcc.ts";

const SPS_0 = Buffer.from("6764001eacd94141", "hex");
const PPS_0 = Buffer.from("68ebe3cb22c0", "hex");
const SPS_31 = Buffer.from("6764001e040b3650", "hex");
const PPS_31 = Buffer.from("68040082f823cb", "hex");

/** An avcC record of High profile with one SPS and one PPS, and its chroma and bit depth fields after them. */
function record(sps: Buffer, pps: Buffer): Buffer {
  const len = (b: Buffer) => Buffer.from([b.length >> 8, b.length & 0xff]);
  return Buffer.concat([Buffer.from([1, 0x64, 0, 0x1e, 0xff, 0xe1]), len(sps), sps, Buffer.from([1]), len(pps), pps, Buffer.from([0xfd, 0xf8, 0xf8, 0])]);
}

function box(type: string, ...body: Buffer[]): Buffer {
  const payload = Buffer.concat(body);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + payload.length);
  head.write(type, 4, "latin1");
  return Buffer.concat([head, payload]);
}

/** ftyp, then a moov with one video track whose avc1 entry holds `avcc`, then a moof that must not move */
function head(avcc: Buffer): Buffer {
  const avc1 = box("avc1", Buffer.alloc(78), box("avcC", avcc), box("btrt", Buffer.alloc(12)));
  const stsd = box("stsd", Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]), avc1);
  const moov = box("moov", box("mvhd", Buffer.alloc(100)), box("trak", box("tkhd", Buffer.alloc(84)), box("mdia", box("minf", box("stbl", stsd, box("stts", Buffer.alloc(8)))))));
  return Buffer.concat([box("ftyp", Buffer.from("isom")), moov, box("moof", Buffer.alloc(16))]);
}

describe("the avcC record", () => {
  it("gains the parameter sets it lacks, once, its High profile fields kept", () => {
    const grown = avccWith(record(SPS_0, PPS_0), [SPS_31, PPS_31, SPS_0]);
    expect(grown[5]! & 0x1f).toBe(2);
    expect(grown.includes(SPS_31)).toBe(true);
    expect(grown.includes(PPS_31)).toBe(true);
    expect(grown.subarray(-4)).toEqual(Buffer.from([0xfd, 0xf8, 0xf8, 0]));
    expect(grown.length).toBe(record(SPS_0, PPS_0).length + 4 + SPS_31.length + PPS_31.length);
    expect(avccWith(record(SPS_0, PPS_0), [SPS_0, PPS_0])).toEqual(record(SPS_0, PPS_0));
  });

  it("is rewritten inside the moov, every enclosing box grown and what follows the moov unmoved", () => {
    const before = head(record(SPS_0, PPS_0));
    const moovStart = before.indexOf("moov") - 4;
    const moovEnd = moovStart + before.readUInt32BE(moovStart);
    const after = withParameterSets(before, { start: moovStart, end: moovEnd }, [SPS_31, PPS_31])!;
    const added = 4 + SPS_31.length + PPS_31.length;
    expect(after.length).toBe(before.length + added);
    for (const type of ["moov", "trak", "mdia", "minf", "stbl", "stsd", "avc1", "avcC"]) {
      const at = (buf: Buffer) => buf.indexOf(type) - 4;
      expect(after.readUInt32BE(at(after))).toBe(before.readUInt32BE(at(before)) + added);
    }
    expect(after.subarray(-24)).toEqual(before.subarray(-24)); // the moof, as it was
    expect(withParameterSets(head(Buffer.alloc(0)).subarray(0, 16), { start: 0, end: 16 }, [SPS_31])).toBeNull();
  });
});
