import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha1 } from './sha1';

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('sha1', () => {
  it('gives the published digests (FIPS 180-4 examples)', () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(hex(sha1(text('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha1(text('')))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1(text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('84983e441c3bd26ebaae4aa1f95129e5e54670f1');
  });

  it("agrees with the platform's Web Crypto for any bytes, across block boundaries (fast-check prints its seed)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), async (bytes) => {
        expect(hex(sha1(bytes))).toBe(hex(new Uint8Array(await crypto.subtle.digest('SHA-1', bytes))));
      }),
      { numRuns: 300 },
    );
  });
});
