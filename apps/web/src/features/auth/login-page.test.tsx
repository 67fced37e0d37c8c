import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loginResponseSchema } from '@vetcall/shared/schemas/auth';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { LoginPage } from './login-page';

describe('LoginPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig({ access_codes_enabled: true });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
  });

  it('shows translated field errors and sends nothing when the form is invalid', async () => {
    const api = fakeApi();
    renderRoutes([{ path: '/', element: <LoginPage /> }], '/');
    await userEvent.type(screen.getByLabelText(/^Email/), 'not-an-email');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Enter a valid email address.')).toBeTruthy();
    expect(screen.getByText('This field is required.')).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('stores the session and goes to the page of the access type', async () => {
    const api = fakeApi().answer('POST', '/api/login/', loginResponseSchema, {
      token: 'tok',
      type: 'vet',
      user: { user_id: 3, type: 'vet', name: 'Dr. Vet', email: 'vet@x.test', locale: 'en' },
    });
    const { router } = renderRoutes(
      [
        { path: '/', element: <LoginPage /> },
        { path: '/vet', element: <p>vet page</p> },
      ],
      '/',
    );
    await userEvent.type(screen.getByLabelText(/^Email/), 'vet@x.test');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vet'));
    expect(api.calls).toEqual([
      { method: 'POST', url: '/api/login/', body: { email: 'vet@x.test', password: 'secret-pass' } },
    ]);
    expect(authStore.getState().token).toBe('tok');
    expect(window.localStorage.getItem('vetcall.token')).toBe('tok');
  });

  it("shows 'invalid login' when the server refuses", async () => {
    fakeApi().refuse('POST', '/api/login/', 401, { error: 'invalid_login_attempt', message: 'x' });
    renderRoutes([{ path: '/', element: <LoginPage /> }], '/');
    await userEvent.type(screen.getByLabelText(/^Email/), 'a@b.test');
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong-pass');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Invalid login: check your email and password.')).toBeTruthy();
    expect(authStore.getState().token).toBeNull();
  });
});
