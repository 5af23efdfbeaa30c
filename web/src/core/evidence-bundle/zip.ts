// A ZIP archive of stored (uncompressed) entries, the evidence bundle's container: photos are
// JPEGs already, so deflate would save nothing, and a stored archive is one that every unzip
// tool, Windows Explorer and macOS Archive Utility read. PKWARE APPNOTE 6.3: each entry's local
// header and bytes, then the central directory and its end record. Names are UTF-8 (flag bit 11);
// times are the UTC wall clock (a ZIP keeps no zone), the server's writer does the same
// (crates/server/src/evidence_bundle/zip.rs). No ZIP64: a bundle is bounded by the photo quota,
// far below 4 GiB, and a larger one is refused rather than written wrong.

export interface ZipFile {
  /** The path inside the archive, `/` between folders. */
  name: string;
  bytes: Uint8Array;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC, as ZIP and gzip use). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** The MS-DOS time and date of `at`'s UTC wall clock (two-second steps, years 1980 to 2107). */
export function dosTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

const LIMIT = 0xffffffff;
/** Version 2.0 (what stored entries and folders in names need), made on Unix (the high byte). */
const VERSION_NEEDED = 20;
const VERSION_MADE_BY = (3 << 8) | 20;
const UTF8_NAMES = 1 << 11;

/** The archive's bytes: the files in order, each stored with its CRC-32. */
export function zipStored(files: readonly ZipFile[], modified: Date): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  const { time, date } = dosTime(modified);
  const names = files.map((file) => encoder.encode(file.name));
  const crcs = files.map((file) => crc32(file.bytes));
  const localSize = files.reduce((sum, file, i) => sum + 30 + names[i]!.length + file.bytes.length, 0);
  const centralSize = names.reduce((sum, name) => sum + 46 + name.length, 0);
  if (localSize + centralSize + 22 > LIMIT || files.length > 0xffff) throw new Error('The bundle is too large for a ZIP without ZIP64');
  const out = new Uint8Array(localSize + centralSize + 22);
  const view = new DataView(out.buffer);
  let at = 0;
  const u16 = (value: number) => {
    view.setUint16(at, value, true);
    at += 2;
  };
  const u32 = (value: number) => {
    view.setUint32(at, value >>> 0, true);
    at += 4;
  };
  const put = (bytes: Uint8Array) => {
    out.set(bytes, at);
    at += bytes.length;
  };
  const offsets: number[] = [];
  files.forEach((file, i) => {
    offsets.push(at);
    u32(0x04034b50);
    u16(VERSION_NEEDED);
    u16(UTF8_NAMES);
    u16(0); // stored
    u16(time);
    u16(date);
    u32(crcs[i]!);
    u32(file.bytes.length); // compressed size
    u32(file.bytes.length);
    u16(names[i]!.length);
    u16(0); // extra field
    put(names[i]!);
    put(file.bytes);
  });
  const centralStart = at;
  files.forEach((file, i) => {
    u32(0x02014b50);
    u16(VERSION_MADE_BY);
    u16(VERSION_NEEDED);
    u16(UTF8_NAMES);
    u16(0);
    u16(time);
    u16(date);
    u32(crcs[i]!);
    u32(file.bytes.length);
    u32(file.bytes.length);
    u16(names[i]!.length);
    u16(0); // extra field
    u16(0); // comment
    u16(0); // disk
    u16(0); // internal attributes
    u32((0o100644 << 16) >>> 0); // external attributes: a regular file, rw-r--r--
    u32(offsets[i]!);
    put(names[i]!);
  });
  u32(0x06054b50);
  u16(0);
  u16(0);
  u16(files.length);
  u16(files.length);
  u32(centralSize);
  u32(centralStart);
  u16(0);
  return out;
}
