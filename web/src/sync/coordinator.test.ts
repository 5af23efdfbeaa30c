import { describe, expect, it } from 'vitest';
import { pokedCursor } from './coordinator';

describe('pokedCursor', () => {
  it("reads the cursor a poke carries, and null when it names none or cannot be read", () => {
    expect(pokedCursor('{"cursor":42}')).toBe(42);
    expect(pokedCursor('{}')).toBeNull();
    expect(pokedCursor('{"cursor":"42"}')).toBeNull();
    expect(pokedCursor('{"cursor":4.5}')).toBeNull();
    expect(pokedCursor('not json')).toBeNull();
  });
});
