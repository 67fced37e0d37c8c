import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { authStore } from '../../lib/auth-store';
import { initTestI18n, renderRoutes } from '../../test/render';
import { VetPage } from './vet-page';
import { loadTestClientConfig } from '../../test/client-config';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function serverWithVet(calendarLinked: boolean) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.startsWith('/api/users/vet/byemail/')) {
      return json(200, {
        vet_id: 4,
        user_id: 3,
        name: 'Dr. Vet',
        email: 'vet@x.test',
        phone: '',
        specialty: 'General',
        discount: 0,
        calendar_linked: calendarLinked,
      });
    }
    if (url === '/api/vets/calendarprofiles/4') return json(200, []);
    if (url === '/api/vets/time-limits') return json(200, [{ time_limit_id: 1, time_limit: '00:00' }]);
    return json(404, { error: 'not_found', message: url });
  });
}

describe('VetPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', { user_id: 3, type: 'vet', name: 'Dr. Vet', email: 'vet@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
    notifications.cleanQueue();
  });

  const routes = [
    { path: '/vet', element: <VetPage /> },
    { path: '/vetdata', element: <p>vet data page</p> },
  ];

  it('sends a vet without a linked calendar from the availability modes to /vetdata, with a toast', async () => {
    serverWithVet(false);
    const { router } = renderRoutes(routes, '/vet');
    await waitFor(() => expect(router.state.location.pathname).toBe('/vetdata'));
    expect(router.state.location.search).toBe('?lang=en&access=vet');
    expect(await screen.findByText('Link a calendar to your account before setting your availability.')).toBeTruthy();
  });

  it('shows the weekly editor to a vet with a linked calendar', async () => {
    serverWithVet(true);
    const { router } = renderRoutes(routes, '/vet');
    expect(await screen.findByText('There is no availability profile yet.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/vet');
  });

  it('keeps the other modes empty and needs no calendar for them', async () => {
    serverWithVet(false);
    const { router } = renderRoutes(routes, '/vet?mode=customers');
    expect(await screen.findByText('Nothing to show here yet.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/vet');
  });
});
