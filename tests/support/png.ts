import { crc32, deflateSync } from "node:zlib";

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A real, decodable black greyscale PNG of any size: its rows of zeros compress to almost
 * nothing, so a 200-megapixel image is a few hundred kilobytes.
 */
export function blackPng(width: number, height: number, bitDepth: 1 | 8 = 8): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([bitDepth, 0, 0, 0, 0], 8); // greyscale, deflate, no filter, no interlace
  const rows = Buffer.alloc((1 + Math.ceil((width * bitDepth) / 8)) * height);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk("IHDR", ihdr), pngChunk("IDAT", deflateSync(rows, { level: 9 })), pngChunk("IEND", Buffer.alloc(0))]);
}
