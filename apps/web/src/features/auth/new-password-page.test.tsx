import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { okResponseSchema } from '@vetcall/shared/schemas/auth';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { write } from '../../test/user-input';
import { NewPasswordPage } from './new-password-page';

const WEAK_MESSAGE = 'Too easy to guess. Use a longer password, or a few unrelated words.';

function renderPage() {
  return renderRoutes(
    [
      { path: '/newpassword', element: <NewPasswordPage /> },
      { path: '/', element: <p>login page</p> },
    ],
    '/newpassword?token=tok-1',
  );
}

async function fillPasswords(password: string) {
  await write(screen.getByLabelText(/^New password/), password);
  await write(screen.getByLabelText(/^Confirm new password/), password);
}

/** What the strength meter says (it shows once the password has a character). */
const strength = () =>
  screen.queryByRole('meter', { name: 'Strength of the password' })?.getAttribute('aria-valuetext');
const submit = () => userEvent.click(screen.getByRole('button', { name: 'Set password' }));

describe('NewPasswordPage', { timeout: 20_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
  });

  it('meters the new password and refuses a weak one without sending it', async () => {
    const api = fakeApi().answer('POST', '/api/login/updatepassword', okResponseSchema, { ok: true });
    const { router } = renderPage();
    await fillPasswords('password');
    await waitFor(() => expect(strength()).toBe('Very weak'));
    await submit();
    // The toast's container loads with the first toast (providers.tsx): wait for both messages.
    await waitFor(() => expect(screen.getAllByText(WEAK_MESSAGE)).toHaveLength(2));
    expect(api.calls).toEqual([]);

    await fillPasswords('tidal pebble 3');
    await waitFor(() => expect(strength()).toBe('Very strong'));
    await submit();
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.calls).toEqual([
      { method: 'POST', url: '/api/login/updatepassword', body: { password: 'tidal pebble 3', token: 'tok-1' } },
    ]);
  });

  it('puts the server’s weak_password on the field instead of a failed reset', async () => {
    fakeApi().refuse('POST', '/api/login/updatepassword', 400, {
      error: 'validation_failed',
      message: 'x',
      fields: { password: 'weak_password' },
    });
    const { router } = renderPage();
    await fillPasswords('rita carvalho 1');
    await submit();
    // The toast's container loads with the first toast (providers.tsx): wait for both messages.
    await waitFor(() => expect(screen.getAllByText(WEAK_MESSAGE)).toHaveLength(2));
    expect(screen.queryByText(/Error resetting password/)).toBeNull();
    expect(router.state.location.pathname).toBe('/newpassword');
  });
});
