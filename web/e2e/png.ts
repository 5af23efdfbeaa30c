// A real PNG made in the test, like a phone's photo of a receipt or a delivery: the photo specs
// (receipts, evidence) upload it through the app's receipt-photo pipeline.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG, like a phone's photo of a long receipt: a pale page with dark lines of "text". */
export function receiptPng(width: number, height: number): Buffer {
  const row = width * 3 + 1;
  const pixels = Buffer.alloc(row * height);
  for (let y = 0; y < height; y += 1) {
    pixels[y * row] = 0; // no filter
    const line = y % 48 < 14;
    for (let x = 0; x < width; x += 1) {
      const ink = line && x % 220 < 170 && x > 80 && x < width - 80;
      const offset = y * row + 1 + x * 3;
      pixels[offset] = ink ? 30 : 245 - Math.floor((x * 20) / width);
      pixels[offset + 1] = ink ? 30 : 240;
      pixels[offset + 2] = ink ? 40 : 230;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(pixels)), chunk('IEND', Buffer.alloc(0))]);
}
