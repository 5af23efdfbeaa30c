import { statementCheckFieldsBeforeCouriers } from '@/sync/default-courier';
import { TEST_USER_ID } from '@/testing/sync-handle';
import { describe, expect, it } from 'vitest';
import type { ParkedChange, ParkedRecord } from './use-parked-changes';
import type { LocalStatementCheck, MutationName } from '@/sync/types';
import { describeChange, discardWarning } from './parked-text';

function parked(name: MutationName, args: Record<string, unknown>, recordId: string, target: ParkedRecord | null = null): ParkedChange {
  return {
    item: { seq: 1, mutationId: 'm', name, args, recordId, createdAt: 0, attempts: 5, lastError: 'x', parked: 1 },
    target,
  };
}

const check: LocalStatementCheck = {
  id: 'i1',
  periodStart: '2025-03-17',
  periodEnd: '2025-03-23',
  paid: 98_000,
  stops: null,
  reference: 'ST-1',
  ...statementCheckFieldsBeforeCouriers(TEST_USER_ID),
  createdAt: '2025-03-24T09:00:00Z',
  updatedAt: '2025-03-24T09:00:00Z',
  deleted: 0,
  syncState: 'parked',
  server: null,
};

describe('parked changes to the profile and settings', () => {
  it('say what they were in the driver’s words, not as an entry', () => {
    expect(describeChange(parked('profile.update', { displayName: 'Sam' }, 'profile'))).toBe('Changes to your profile');
    expect(describeChange(parked('profile.update', { paymentConfig: { tiers: [] } }, 'profile'))).toBe('Changes to your payment settings');
    expect(describeChange(parked('settings.put', { theme: 'light' }, 'settings'))).toBe('Changing the theme');
    expect(discardWarning(parked('profile.update', { bio: '' }, 'profile'))).toMatch(/goes back to what the server has/);
  });
});

describe('parked statement checks', () => {
  it('are described as statement checks, never as entries', () => {
    const args = { id: 'i1', periodStart: '2025-03-17', periodEnd: '2025-03-23', paid: 98_000, stops: null, reference: 'ST-1' };
    const fresh = parked('invoice.put', args, 'i1', { kind: 'invoice', record: check });
    expect(describeChange(fresh)).toBe('New statement check for 17/03/2025 to 23/03/2025 (£980.00 paid)');
    expect(discardWarning(fresh)).toBe('What you typed will be lost: this statement check is only on this device and will be removed.');

    const synced = { ...check, server: { ...check, version: 3 } };
    const edited = parked('invoice.put', args, 'i1', { kind: 'invoice', record: synced });
    expect(describeChange(edited)).toMatch(/^Changes to the statement check for 17\/03\/2025/);
    expect(discardWarning(edited)).toBe('What you typed will be lost: the statement check goes back to what the server has.');

    const removal = parked('invoice.delete', { id: 'i1' }, 'i1', { kind: 'invoice', record: { ...synced, deleted: 1 } });
    expect(describeChange(removal)).toBe('Deleting the statement check for 17/03/2025 to 23/03/2025');
    expect(discardWarning(removal)).toBe('The statement check will come back as the server has it, and will not be deleted.');
    expect(describeChange(parked('invoice.delete', { id: 'i2' }, 'i2', { kind: 'invoice', record: undefined }))).toBe('Deleting a statement check');
  });

  it('leave entries described as before', () => {
    const put = parked('entry.put', { id: 'e1', date: '2025-03-21', stops: 120, extra: 0, notes: '', total: 23_760 }, 'e1', { kind: 'entry', record: undefined });
    expect(describeChange(put)).toBe('New entry for 21/03/2025 (120 stops, £237.60)');
    expect(describeChange(parked('entry.delete', { id: 'e2' }, 'e2', { kind: 'entry', record: undefined }))).toBe('Deleting an entry');
  });
});

describe('parked couriers, rate cards and deductions', () => {
  it('are described in the settings’ own words', () => {
    expect(describeChange(parked('courier.put', { id: 'c1', name: 'Evri' }, 'c1', { kind: 'courier', record: undefined }))).toBe('New courier "Evri"');
    expect(describeChange(parked('rateCard.put', { id: 'r1', validFrom: '2000-01-01' }, 'r1', { kind: 'rateCard', record: undefined }))).toBe('New rate card from the start');
    expect(describeChange(parked('rateCard.put', { id: 'r2', validFrom: '2025-09-01' }, 'r2', { kind: 'rateCard', record: undefined }))).toBe('New rate card from 01/09/2025');
    expect(describeChange(parked('deduction.put', { id: 'd1', label: 'Van hire', from: '2025-03-03', amount: 18_500 }, 'd1', { kind: 'deduction', record: undefined }))).toBe(
      'New deduction "Van hire" from 03/03/2025 (£185.00)',
    );
    expect(describeChange(parked('courier.delete', { id: 'c2' }, 'c2', { kind: 'courier', record: undefined }))).toBe('Deleting a courier');
  });
});
