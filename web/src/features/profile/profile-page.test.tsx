import { act, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { SUCCESS_MESSAGE_MS } from '@/lib/flash';
import { SessionContext } from '@/lib/session/session-context';
import { createSessionStore } from '@/lib/session/session-store';
import type * as Commands from '@/sync/commands';
import { updateProfile } from '@/sync/commands';
import { makeProfileData, makeUser, syncedProfileDoc } from '@/testing/fixtures';
import { renderWithSync } from '@/testing/render-with-sync';
import { createTestSyncHandle, makeEntry, makeStatementCheckContent } from '@/testing/sync-handle';
import { ProfilePage } from './profile-page';

// The real command, wrapped so a test can make it fail.
vi.mock('@/sync/commands', async (importOriginal) => {
  const real = await importOriginal<typeof Commands>();
  return { ...real, updateProfile: vi.fn(real.updateProfile) };
});

function setup(options: Parameters<typeof renderWithSync>[1] = {}) {
  const app = renderWithSync(<ProfilePage />, { path: '/app/profile', ...options });
  return {
    ...app,
    card: () => screen.getByRole('region', { name: 'Your profile' }),
    edit: async () => app.user.click(await screen.findByRole('button', { name: 'Edit Profile' })),
    name: () => screen.getByLabelText('Display name') as HTMLInputElement,
    bio: () => screen.getByLabelText(/^Bio/) as HTMLTextAreaElement,
    save: () => app.user.click(screen.getByRole('button', { name: 'Save' })),
  };
}

describe('ProfilePage view mode', () => {
  it('shows the session user before the server has sent a profile, and the plan links to the plans', async () => {
    const page = setup({ user: makeUser({ displayName: 'Sam Driver', bio: 'Van 7, Leeds' }) });
    const card = await screen.findByRole('region', { name: 'Your profile' });
    expect(within(card).getByRole('heading', { name: 'Sam Driver' })).toBeInTheDocument();
    expect(within(card).getByText('driver@example.com')).toBeInTheDocument();
    expect(within(card).getByText('Van 7, Leeds')).toBeInTheDocument();
    await page.user.click(within(card).getByRole('link', { name: 'Free User' }));
    expect(screen.getByText('Now at another page')).toBeInTheDocument();
    expect(page.router.state.location.pathname).toBe('/app/upgrade');
  });

  it('prefers the synced profile over the session copy (name, bio, plan)', async () => {
    const handle = createTestSyncHandle();
    await handle.db.docs.put(syncedProfileDoc(makeProfileData({ displayName: 'Samira Khan', bio: 'Nights only', role: 'pro' })));
    setup({ handle, user: makeUser({ displayName: 'Sam Driver', role: 'free' }) });
    const card = await screen.findByRole('region', { name: 'Your profile' });
    expect(await within(card).findByRole('heading', { name: 'Samira Khan' })).toBeInTheDocument();
    expect(within(card).getByText('Nights only')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Pro Member' })).toBeInTheDocument();
    expect(within(card).queryByText('Free User')).not.toBeInTheDocument();
  });

  it('shows the picture when there is one', async () => {
    setup({ user: makeUser({ photoURL: '/api/v1/files/users/u1/profile_1' }) });
    const card = await screen.findByRole('region', { name: 'Your profile' });
    expect(card.querySelector('img')).toHaveAttribute('src', '/api/v1/files/users/u1/profile_1');
  });

  it('says a guest has no email address', async () => {
    setup({ user: makeUser({ email: null, isAnonymous: true, displayName: 'User' }) });
    const card = await screen.findByRole('region', { name: 'Your profile' });
    expect(within(card).getByText('Guest account: no email address')).toBeInTheDocument();
  });

  it('shows the achievements from the entries on the device', async () => {
    const handle = createTestSyncHandle();
    await handle.db.entries.bulkPut([
      makeEntry({ date: '2025-03-17', stops: 132 }),
      makeEntry({ date: '2025-03-18', stops: 508 }),
      makeEntry({ date: '2025-03-19', stops: 400, deleted: 1 }), // deleted: never counted
    ]);
    const check = { ...makeStatementCheckContent({ periodStart: '2025-03-16', periodEnd: '2025-03-22', paid: 100 }), createdAt: 'c', updatedAt: 'u', syncState: 'synced' as const, server: null };
    await handle.db.invoices.bulkPut([
      { ...check, id: 'i1', deleted: 0 },
      { ...check, id: 'i2', deleted: 0 },
      { ...check, id: 'i3', deleted: 1 }, // deleted: never counted
    ]);
    setup({ handle });
    const section = await screen.findByRole('region', { name: 'Achievements' });
    const item = (title: string) => within(section).getByRole('heading', { name: title }).closest('li')!;
    await waitFor(() => expect(item('Delivery Expert')).toHaveTextContent('640 / 1,000 stops'));
    expect(item('Perfect Week')).toHaveTextContent('best week: 2 of 7 days');
    expect(item('Top Performer')).toHaveTextContent('Unlocked');
    expect(item('Invoice Master')).toHaveTextContent('2 / 10 statement checks');
    expect(within(item('Invoice Master')).getByRole('link', { name: 'Check a statement' })).toHaveAttribute('href', '/app/history?view=statements');
    expect(within(item('Delivery Expert')).getByRole('progressbar', { name: 'Delivery Expert progress' })).toHaveAttribute('value', '640');
  });

  it('asks a visitor without a user to log in', () => {
    const session = createSessionStore(); // never started: nobody is signed in
    const router = createMemoryRouter([{ path: '*', element: <ProfilePage /> }]);
    render(
      <SessionContext value={session}>
        <RouterProvider router={router} />
      </SessionContext>,
    );
    expect(screen.getByText('User not authenticated. Please log in.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  });
});

describe('ProfilePage edit mode', () => {
  it('fills the form with the stored values; email is read-only and says why', async () => {
    const page = setup({ user: makeUser({ bio: 'Van 7' }) });
    await page.edit();
    expect(page.name().value).toBe('Sam Driver');
    expect(page.bio().value).toBe('Van 7');
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('driver@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription('Email cannot be changed');
    expect(screen.getByText('(optional)')).toBeInTheDocument(); // bio is optional
  });

  it('requires a display name and stores nothing without one', async () => {
    const page = setup();
    await page.edit();
    await page.user.clear(page.name());
    await page.user.type(page.name(), '   ');
    await page.save();
    expect(await screen.findByText('Display name is required')).toBeInTheDocument();
    expect(page.name()).toHaveAccessibleDescription('Display name is required');
    expect(await page.handle.db.outbox.count()).toBe(0);
  });

  it('Cancel goes back to view and restores the stored values', async () => {
    const page = setup({ user: makeUser({ bio: 'Van 7' }) });
    await page.edit();
    await page.user.clear(page.name());
    await page.user.type(page.name(), 'Someone Else');
    await page.user.type(page.bio(), ' and more');
    await page.user.click(screen.getByRole('button', { name: 'Cancel' }));

    expect(page.card()).toHaveTextContent('Sam Driver');
    expect(page.card()).toHaveTextContent('Van 7');
    expect(page.card()).not.toHaveTextContent('Someone Else');
    await page.edit();
    expect(page.name().value).toBe('Sam Driver');
    expect(page.bio().value).toBe('Van 7');
    expect(await page.handle.db.outbox.count()).toBe(0);
  });

  it('saves on the device (no network needed), nudges sync, and shows the change at once with a success message', async () => {
    const page = setup();
    await page.edit();
    await page.user.clear(page.name());
    await page.user.type(page.name(), '  Samira Khan ');
    await page.user.type(page.bio(), 'Nights only');
    await page.save();

    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(await within(page.card()).findByRole('heading', { name: 'Samira Khan' })).toBeInTheDocument();
    expect(page.card()).toHaveTextContent('Nights only');
    expect(page.card()).toHaveTextContent('Changes saved on this device, waiting to sync.');
    const [item] = await page.handle.db.outbox.toArray();
    expect(item).toMatchObject({ name: 'profile.update', recordId: 'profile', args: { displayName: 'Samira Khan', bio: 'Nights only' } });
    expect(page.handle.requestSync).toHaveBeenCalledTimes(1);
  });

  it('hides the success message after 3 s', async () => {
    // The database schedules its own work with setTimeout, so the clock cannot be faked here:
    // catch the timers of 3 s and run them. The message's is among them; the database also
    // drops a live query's cache 3 s after its last reader (the closed form) left.
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const page = setup();
    await page.edit();
    await page.save();
    await screen.findByText('Profile updated successfully!');
    const hideTimers = () => timers.mock.calls.filter(([, ms]) => ms === SUCCESS_MESSAGE_MS);
    expect(SUCCESS_MESSAGE_MS).toBe(3_000);
    await waitFor(() => expect(hideTimers().length).toBeGreaterThan(0));
    expect(screen.getByText('Profile updated successfully!')).toBeInTheDocument();
    act(() => hideTimers().forEach(([run]) => (run as () => void)()));
    expect(screen.queryByText('Profile updated successfully!')).not.toBeInTheDocument();
  });

  it('reports a failed save with the reason and stays in edit mode', async () => {
    vi.mocked(updateProfile).mockRejectedValueOnce(new Error('QuotaExceededError'));
    const page = setup();
    await page.edit();
    await page.user.type(page.bio(), 'x');
    await page.save();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update profile: QuotaExceededError');
    expect(page.bio().value).toBe('x');
    expect(screen.queryByText('Profile updated successfully!')).not.toBeInTheDocument();
    expect(page.handle.requestSync).not.toHaveBeenCalled();
  });

  it('says when the profile on the device cannot be read, and still shows the signed-in user', async () => {
    const handle = createTestSyncHandle();
    vi.spyOn(handle.db, 'getDoc').mockRejectedValue(new Error('broken'));
    setup({ handle });
    expect(await screen.findByText('Failed to load profile data')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Your profile' })).getByRole('heading', { name: 'Sam Driver' })).toBeInTheDocument();
  });
});
