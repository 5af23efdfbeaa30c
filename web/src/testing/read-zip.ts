// A ZIP reader for tests, written from PKWARE APPNOTE 6.3 apart from the writer it checks
// (core/evidence-bundle/zip.ts): it finds the end record, walks the central directory, checks
// every local header agrees with it and every entry's CRC-32 with its bytes (computed bit by bit
// here, not with the writer's table). The e2e reads the downloaded bundle with it too. Stored
// entries only: what the bundle writes.

/** CRC-32 bit by bit (reflected, polynomial 0xEDB88320): slow and plain, for checking. */
export function crc32Bitwise(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
  /** General purpose flags: bit 11 says the name is UTF-8. */
  flags: number;
  method: number;
}

export function readZip(zip: Uint8Array): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error('no end of central directory record');
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const start = view.getUint32(end + 16, true);
  if (start + size !== end) throw new Error(`central directory at ${start} of ${size} bytes does not end at ${end}`);
  if (view.getUint16(end + 8, true) !== count) throw new Error('entries on this disk differ from the total');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: ZipEntry[] = [];
  let at = start;
  for (let i = 0; i < count; i += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`central header ${i} has no signature`);
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const compressed = view.getUint32(at + 20, true);
    const uncompressed = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const offset = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
    if (method !== 0 || compressed !== uncompressed) throw new Error(`${name}: not stored`);
    if (view.getUint32(offset, true) !== 0x04034b50) throw new Error(`${name}: no local header at ${offset}`);
    const localName = decoder.decode(zip.subarray(offset + 30, offset + 30 + view.getUint16(offset + 26, true)));
    if (localName !== name || view.getUint16(offset + 6, true) !== flags || view.getUint32(offset + 14, true) !== crc || view.getUint32(offset + 22, true) !== uncompressed) {
      throw new Error(`${name}: the local header disagrees with the central directory`);
    }
    const dataStart = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const bytes = zip.subarray(dataStart, dataStart + uncompressed);
    if (bytes.length !== uncompressed) throw new Error(`${name}: truncated`);
    if (crc32Bitwise(bytes) !== crc) throw new Error(`${name}: CRC-32 does not match its bytes`);
    entries.push({ name, bytes, flags, method });
  }
  return entries;
}
