import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { myAppointmentPageSchema } from '@vetcall/shared/schemas/appointment';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { CustomerPage } from './customer-page';

describe('CustomerPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
  });

  it('offers My appointments in the navbar’s modes and shows it as a mode of /customer', async () => {
    fakeApi().answer('GET', /^\/api\/appointments\/mine\?/, myAppointmentPageSchema, { items: [], next_cursor: null });
    const { router } = renderRoutes([{ path: '/customer', element: <CustomerPage /> }], '/customer?mode=appointments');
    expect(await screen.findByRole('heading', { level: 1, name: 'My appointments' })).toBeTruthy();
    expect(await screen.findByText('You have no upcoming appointments.')).toBeTruthy();
    const modes = screen.getByRole('group', { name: 'Mode' });
    const link = within(modes).getByRole('link', { name: 'My appointments' });
    expect([link.getAttribute('href'), link.getAttribute('aria-current')]).toEqual([
      '/customer?mode=appointments',
      'page',
    ]);
    await userEvent.click(within(modes).getByRole('link', { name: 'Schedule appointment' }));
    expect(router.state.location.search).toBe('?mode=appointment_req');
  });
});
