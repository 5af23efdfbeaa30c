import { describe, expect, it } from 'vitest';
import { crc32Bitwise, readZip } from '@/testing/read-zip';
import { crc32, dosTime, zipStored } from './zip';

describe('zipStored', () => {
  it('CRC-32 is the standard one ("123456789" is CBF43926; the bit-by-bit reckoning agrees)', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32Bitwise(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 0xff);
    expect(crc32(bytes)).toBe(crc32Bitwise(bytes));
    expect(crc32(new Uint8Array())).toBe(0);
  });

  it('writes entries an independent reader gets back byte for byte, names as UTF-8', () => {
    const files = [
      { name: 'summary.html', bytes: new TextEncoder().encode('<p>£12.50 owed</p>') },
      { name: 'photos/2026-11-02-proof-of-delivery-é.jpg', bytes: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0xff, 0xd9]) },
      { name: 'empty.txt', bytes: new Uint8Array() },
    ];
    const entries = readZip(zipStored(files, new Date('2026-11-02T14:03:10Z')));
    expect(entries.map((e) => e.name)).toEqual(files.map((f) => f.name));
    entries.forEach((entry, i) => {
      expect(entry.bytes).toEqual(files[i]!.bytes);
      expect(entry.flags & 0x800).toBe(0x800);
      expect(entry.method).toBe(0);
    });
  });

  it('an empty archive is only its end record', () => {
    const zip = zipStored([], new Date('2026-01-01T00:00:00Z'));
    expect(zip.length).toBe(22);
    expect(readZip(zip)).toEqual([]);
  });

  it('keeps the UTC wall clock as an MS-DOS time and date', () => {
    const { time, date } = dosTime(new Date('2026-11-02T14:03:11Z'));
    expect([time >> 11, (time >> 5) & 63, (time & 31) * 2]).toEqual([14, 3, 10]);
    expect([(date >> 9) + 1980, (date >> 5) & 15, date & 31]).toEqual([2026, 11, 2]);
  });

  it('a changed byte is caught by the reader through the CRC', () => {
    const zip = zipStored([{ name: 'a.txt', bytes: new TextEncoder().encode('hello') }], new Date('2026-01-01T00:00:00Z'));
    zip[30 + 'a.txt'.length]! ^= 1;
    expect(() => readZip(zip)).toThrow(/CRC-32/);
  });
});
