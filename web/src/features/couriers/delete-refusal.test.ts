import { describe, expect, it } from 'vitest';
import { DEFAULT_COURIER } from '@/sync/default-courier';
import { deleteRefusal } from './delete-refusal';

const evri = { ...DEFAULT_COURIER, name: 'Evri', id: 'evri' };
const couriers = [
  { id: 'me', deleted: 0 as const },
  { id: 'evri', deleted: 0 as const },
];
const on = (courierId: string, deleted: 0 | 1 = 0) => ({ courierId, deleted });

describe('deleteRefusal', () => {
  it('allows a courier with no live days or checks while another courier is left', () => {
    expect(deleteRefusal(evri, { couriers, entries: [on('me'), on('evri', 1)], statementChecks: [on('evri', 1)] })).toBeNull();
  });

  it('refuses the only live courier', () => {
    expect(deleteRefusal(evri, { couriers: [couriers[1]!, { id: 'me', deleted: 1 }], entries: [], statementChecks: [] })).toBe(
      'Evri is your only courier: every day needs one, so add another courier before deleting this one.',
    );
  });

  it('refuses while days or statement checks point at it, counting them', () => {
    expect(deleteRefusal(evri, { couriers, entries: [on('evri'), on('evri')], statementChecks: [] })).toBe('Evri cannot be deleted: 2 days are logged for it. Delete them first.');
    expect(deleteRefusal(evri, { couriers, entries: [on('evri')], statementChecks: [on('evri')] })).toBe(
      'Evri cannot be deleted: 1 day is logged and 1 statement check is saved for it. Delete them first.',
    );
    expect(deleteRefusal(evri, { couriers, entries: [], statementChecks: [on('evri')] })).toBe('Evri cannot be deleted: 1 statement check is saved for it. Delete it first.');
  });
});
