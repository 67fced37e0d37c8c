import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import pt from '@vetcall/shared/i18n/pt.json';
import { calendarLinkStatusSchema } from '@vetcall/shared/schemas/calendar-link';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { AuthCallbackPage } from './auth-callback-page';

/** PUT /api/vets/token/{vet_id}; the Portuguese catalog for a callback that switches language. */
function fakeServer(options: { tokenFails?: boolean } = {}) {
  return fakeApi()
    .answer('PUT', /^\/api\/vets\/token\/(\d+)$/, calendarLinkStatusSchema, ({ match }) =>
      options.tokenFails
        ? refusal(500, { error: 'internal_error', message: 'x' })
        : { vet_id: Number(match[1]), calendar_linked: true },
    )
    .raw('GET', '/api/translations/pt', () => Response.json(pt));
}

/** Arrives at /auth/callback as the provider sends the browser back: the query in the address bar too. */
function arrive(query: string) {
  const path = `/auth/callback?${query}`;
  window.history.replaceState(null, '', path);
  return renderRoutes(
    [
      { path: '/auth/callback', element: <AuthCallbackPage /> },
      { path: '/vetdata', element: <p>vet data</p> },
    ],
    path,
  );
}

const state = (lang: string) => encodeURIComponent(`vet_id:4 lang:${lang} access:vet`);
const sent = (api: ReturnType<typeof fakeServer>) => api.calls.filter((call) => call.method === 'PUT');

describe('AuthCallbackPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig({ support_email: 'help@vetcall.test' });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', '/');
    await i18next.changeLanguage('en');
  });

  it('stores the token, thanks the vet, and OK goes back to the vet data', async () => {
    const api = fakeServer();
    const { router } = arrive(`token=acct-token-1&state=${state('en')}`);
    expect(screen.getByText('Linking your calendar…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'OK' })).toHaveProperty('disabled', true);

    expect(await screen.findByText('Thank you!')).toBeTruthy();
    expect(screen.getByText('Your calendar is now linked. You can set your availability.')).toBeTruthy();
    expect(sent(api)).toEqual([
      { method: 'PUT', url: '/api/vets/token/4', body: { vet_id: 4, account_token: 'acct-token-1' } },
    ]);
    // The token does not stay in the address bar.
    expect(window.location.search).toBe('');

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/vetdata'));
    expect(router.state.location.search).toBe('?lang=en&access=vet');
  });

  it('switches to the language of the state', async () => {
    fakeServer();
    const { router } = arrive(`token=acct-token-2&state=${state('pt')}`);
    expect(await screen.findByText('Obrigado!')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.search).toBe('?lang=pt&access=vet'));
  });

  it('shows the association problem and the support contact without a token, and sends nothing', async () => {
    const api = fakeServer();
    arrive(`state=${state('en')}`);
    expect(await screen.findByText('Calendar association problem')).toBeTruthy();
    expect(screen.getByText('If the problem continues, contact support at help@vetcall.test.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'OK' })).toHaveProperty('disabled', false);
    expect(sent(api)).toEqual([]);
  });

  it('shows the association problem when the provider refused', async () => {
    const api = fakeServer();
    arrive(`token=acct-token-3&status=error&state=${state('en')}`);
    expect(await screen.findByText('Calendar association problem')).toBeTruthy();
    expect(sent(api)).toEqual([]);
  });

  it('shows the association problem when the token cannot be stored', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeServer({ tokenFails: true });
    arrive(`token=acct-token-4&state=${state('en')}`);
    expect(
      await screen.findByText('We could not link your calendar. Please try again from your data page.'),
    ).toBeTruthy();
  });
});
