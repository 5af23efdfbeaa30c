import 'fake-indexeddb/auto';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { updateProfile } from '@/sync/commands';
import { makeProfileData, makeUser, syncedProfileDoc } from '@/testing/fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { refuseLatestChange } from '@/testing/refuse';
import { createTestSyncHandle } from '@/testing/sync-handle';
import { ProfilePage } from './profile-page';

// A push refusal names its problems by field (issue 32): the profile's edit form shows each
// beside its field, the rest above the buttons.
describe('a refused profile change', () => {
  it('shows each problem beside its field when the driver edits again', async () => {
    const handle = createTestSyncHandle();
    await handle.db.docs.put(syncedProfileDoc(makeProfileData({ displayName: 'Sam Driver', bio: '' })));
    await updateProfile(handle.db, { displayName: 'Sam\u202e', bio: 'Vans' });
    const nameProblem = 'Display name must not contain line breaks, control characters or text-direction marks';
    const otherProblem = 'Role cannot be changed here';
    await refuseLatestChange(handle.db, 'profile', { displayName: [nameProblem], role: [otherProblem] });

    const app = renderWithSync(<ProfilePage />, { handle, path: '/app/profile', user: makeUser({ displayName: 'Sam Driver' }) });
    await app.user.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const name = screen.getByLabelText('Display name');
    await waitFor(() => expect(name).toHaveAccessibleDescription(nameProblem));
    expect(name).toBeInvalid();
    expect(screen.getByRole('alert')).toHaveTextContent(otherProblem);
    await app.user.type(name, 'x');
    expect(name).not.toHaveAccessibleDescription(nameProblem);
  });
});
