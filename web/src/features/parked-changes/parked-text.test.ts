import { describe, expect, it } from 'vitest';
import type { ParkedChange } from './use-parked-changes';
import type { MutationName } from '@/sync/types';
import { describeChange, discardWarning } from './parked-text';

function parked(name: MutationName, args: Record<string, unknown>, recordId: string): ParkedChange {
  return {
    item: { seq: 1, mutationId: 'm', name, args, recordId, createdAt: 0, attempts: 5, lastError: 'x', parked: 1 },
    entry: undefined,
  };
}

describe('parked changes to the profile and settings', () => {
  it('say what they were in the driver’s words, not as an entry', () => {
    expect(describeChange(parked('profile.update', { displayName: 'Sam' }, 'profile'))).toBe('Changes to your profile');
    expect(describeChange(parked('profile.update', { paymentConfig: { tiers: [] } }, 'profile'))).toBe('Changes to your payment settings');
    expect(describeChange(parked('settings.put', { theme: 'light' }, 'settings'))).toBe('Changing the theme');
    expect(discardWarning(parked('profile.update', { bio: '' }, 'profile'))).toMatch(/goes back to what the server has/);
  });
});
