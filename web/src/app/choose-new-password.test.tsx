import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '@/testing/fake-fetch';
import { makeUser } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const SESSION = 'GET /api/v1/auth/session';
const PASSWORD = 'POST /api/v1/auth/password';

describe('a temporary password', () => {
  it('blocks the app with "Choose a new password" until a new one is chosen, then opens it', async () => {
    let mustChange = true;
    const app = renderApp('/app/history', {
      routes: {
        [SESSION]: () => json(200, { user: makeUser({ mustChangePassword: mustChange }) }),
        [PASSWORD]: () => {
          mustChange = false;
          return json(200, { endedSessions: 0 });
        },
      },
    });

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    // The same checks as Change Password on Profile.
    await app.user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(screen.getByText('Current password is required')).toBeInTheDocument();
    expect(app.server.callsTo(PASSWORD)).toHaveLength(0);

    await app.user.type(screen.getByLabelText('Current password'), 'Temp0rary-from-operator');
    await app.user.type(screen.getByLabelText('New password'), 'my-own-route-9');
    await app.user.click(screen.getByRole('button', { name: 'Change Password' }));

    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose a new password' })).not.toBeInTheDocument());
    expect(app.server.callsTo(PASSWORD)[0]?.body).toEqual({
      currentPassword: 'Temp0rary-from-operator',
      newPassword: 'my-own-route-9',
      endOtherSessions: true,
    });
  });

  it('right after signing in with the temporary password, does not ask for it again', async () => {
    let mustChange = true;
    const app = renderApp('/app/dashboard', {
      routes: {
        [SESSION]: () => json(200, { user: makeUser({ mustChangePassword: mustChange, signedInWithTemporaryPassword: mustChange }) }),
        [PASSWORD]: () => {
          mustChange = false;
          return json(200, { endedSessions: 0 });
        },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByText('Your password was reset and is temporary. Pick your own below.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await app.user.type(screen.getByLabelText('New password'), 'my-own-route-9');
    await app.user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Choose a new password' })).not.toBeInTheDocument());
    expect(app.server.callsTo(PASSWORD)[0]?.body).toEqual({ newPassword: 'my-own-route-9', endOtherSessions: true });
  });

  it('asks for the current password after all when the server wants it', async () => {
    const app = renderApp('/app/dashboard', {
      routes: {
        [SESSION]: () => json(200, { user: makeUser({ mustChangePassword: true, signedInWithTemporaryPassword: true }) }),
        [PASSWORD]: () => json(422, { error: { code: 'validation', message: 'Current password is required', fields: { currentPassword: ['Current password is required'] } } }),
      },
    });
    await app.user.type(await screen.findByLabelText('New password'), 'my-own-route-9');
    await app.user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByLabelText('Current password')).toHaveAccessibleDescription('Current password is required');
  });
});
