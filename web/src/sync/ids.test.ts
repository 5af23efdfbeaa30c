import { describe, expect, it } from 'vitest';
import { nameId, newId } from './ids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  it('is a version 7 UUID, different each time', () => {
    const [a, b] = [newId(), newId()];
    expect(UUID.exec(a)?.[1]).toBe('7');
    expect(a).not.toBe(b);
  });
});

describe('nameId', () => {
  it('is the standard version 5 UUID (the RFC 9562 example: the DNS namespace and www.example.com)', async () => {
    expect(await nameId('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('is the same for the same namespace and name, and differs when either does', async () => {
    const account = '0192f4c6-4c1e-7d3a-9b7e-2f6a1c3d5e7f';
    const other = '0192f4c6-4c1e-7d3a-9b7e-2f6a1c3d5e80';
    const id = await nameId(account, 'csv-day|courier|2025-03-21');
    expect(UUID.exec(id)?.[1]).toBe('5');
    expect(await nameId(account, 'csv-day|courier|2025-03-21')).toBe(id);
    expect(await nameId(account, 'csv-day|courier|2025-03-22')).not.toBe(id);
    expect(await nameId(other, 'csv-day|courier|2025-03-21')).not.toBe(id);
  });

  it('refuses a namespace that is not a UUID', async () => {
    await expect(nameId('not-a-uuid', 'x')).rejects.toThrow('is not a UUID');
  });
});
