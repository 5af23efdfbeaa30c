import { describe, expect, it } from 'vitest';
import contractJson from './contract.json';
import generatedText from './contract.generated.ts?raw';
import { generate, type Contract } from '../../scripts/contract-codegen';
import { IMPORT_ORDER } from '../core/import/import-plan';
import { BOUNDS, CONTENT_SCHEMAS, KIND_NAMES, REFERENCES, STARTER_RECORDS } from './contract.generated';
import { DEFAULT_COURIER, firstCard } from './default-courier';
import { RECORD_KINDS, recordKinds } from './records';

const contract = contractJson as unknown as Contract;

describe('the contract the Rust domain writes', () => {
  // The server's test fails when contract.json is stale; this one when the TypeScript is.
  it('is what contract.generated.ts was generated from (run `npm run contract` after it changes)', () => {
    expect(generatedText).toBe(generate(contract));
  });

  it('names every kind the device syncs, and the device syncs every kind it names', () => {
    expect([...recordKinds].sort()).toEqual(contract.kinds.map((k) => k.name).sort());
    expect([...KIND_NAMES]).toEqual(contract.kinds.map((k) => k.name));
    for (const kind of KIND_NAMES) {
      expect(RECORD_KINDS[kind].put).toBe(`${kind}.put`);
      expect(RECORD_KINDS[kind].content).toBe(CONTENT_SCHEMAS[kind]);
    }
  });

  it('orders an import so that every record comes after the kinds it points at', () => {
    expect([...IMPORT_ORDER].sort()).toEqual([...KIND_NAMES].sort());
    for (const kind of IMPORT_ORDER) {
      // A kind pointing at its own kind (a sent update at the one it supersedes) is ordered within the file.
      for (const ref of REFERENCES[kind].filter((ref) => ref.kind !== kind)) expect(IMPORT_ORDER.indexOf(ref.kind), `${kind}.${ref.field}`).toBeLessThan(IMPORT_ORDER.indexOf(kind));
    }
  });

  it('gives the starter records the device makes before its first pull', () => {
    const [courier, card] = STARTER_RECORDS;
    expect(courier.data).toEqual(DEFAULT_COURIER);
    const { perStop, ...rest } = card.data;
    expect({ ...rest, perStop }).toEqual(firstCard('{userId}', perStop));
  });

  it('carries the bounds the server holds each kind to', () => {
    expect(BOUNDS.entry.maxStops).toBe(1000);
    expect(BOUNDS.mileage.maxMiles).toBe(2000);
  });
});
