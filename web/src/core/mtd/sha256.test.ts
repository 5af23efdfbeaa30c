import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexOfBytes } from './sha256';

describe('sha256Hex', () => {
  // FIPS 180-4 examples and the empty message.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ])('hashes %j as published', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  it("agrees with the platform's Web Crypto for any text, across block edges and non-ASCII (fast-check prints its seed)", async () => {
    const platform = async (text: string) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), async (text) => {
        expect(sha256Hex(text)).toBe(await platform(text));
      }),
      { numRuns: 300 },
    );
  });

  it("hashes bytes as the platform's Web Crypto does (a bundle's photos)", async () => {
    const platform = async (bytes: Uint8Array) =>
      [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        expect(sha256HexOfBytes(bytes)).toBe(await platform(bytes));
      }),
      { numRuns: 300 },
    );
    const photo = Uint8Array.from({ length: 1_000_003 }, (_, i) => (i * 31) & 0xff);
    expect(sha256HexOfBytes(photo)).toBe(await platform(photo));
  });
});
