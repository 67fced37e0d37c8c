import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { appointmentPageSchema, vetCustomerSchema } from '@vetcall/shared/schemas/appointment';
import { NEXT_CURSOR_HEADER } from '@vetcall/shared/schemas/fields';
import { vetSchema } from '@vetcall/shared/schemas/staff';
import { authStore } from '../../lib/auth-store';
import { browserTimeZone } from '../../lib/format';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { calendarProfileListSchema, timeLimitListSchema } from '../../test/route-schemas';
import { VetPage } from './vet-page';

function serverWithVet(calendarLinked: boolean) {
  const row = {
    customer_user_id: 5,
    customer_name: 'Rita Sousa',
    pet_id: 7,
    vet_user_id: 3,
    vet_name: 'Dr. Vet',
    schedule: '2026-11-20T10:00:00.000Z',
    status_date: '2026-11-18T09:00:00.000Z',
    price: 2500,
  };
  const api = fakeApi()
    .answer('GET', /^\/api\/users\/vet\/byemail\//, vetSchema, {
      vet_id: 4,
      user_id: 3,
      name: 'Dr. Vet',
      email: 'vet@x.test',
      phone: '',
      specialty: 'General',
      discount: 0,
      calendar_linked: calendarLinked,
      locale: 'en',
    })
    .answer('GET', '/api/vets/calendarprofiles/4', calendarProfileListSchema, [])
    .answer('GET', '/api/vets/time-limits', timeLimitListSchema, [{ time_limit_id: 1, time_limit: '00:00' }])
    .answer('GET', '/api/vets/customers/4', z.array(vetCustomerSchema), [
      { user_id: 5, name: 'Rita Sousa', email: 'rita@x.test', phone: '912345678', address: 'Rua A', tax_id: '123' },
    ])
    .answer('GET', '/api/vets/appointments/4', appointmentPageSchema, {
      items: [
        {
          ...row,
          appointment_id: 1,
          pet_name: 'Bolinha',
          appointment_status_key: 'TK_Confirmed',
          appointment_status: 'Confirmed',
        },
        {
          ...row,
          appointment_id: 2,
          pet_name: 'Tareco',
          appointment_status_key: 'TK_Requested',
          appointment_status: 'Requested',
        },
      ],
      next_cursor: null,
    });
  return api;
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
    vi.useRealTimers();
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

  it("lists the vet's customers without needing a calendar", async () => {
    const api = serverWithVet(false);
    const { router } = renderRoutes(routes, '/vet?mode=customers');
    const table = await screen.findByRole('table', { name: 'Your customers' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['IDNameEmailPhoneAddressVAT number', '5Rita Sousarita@x.test912345678Rua A123']);
    expect(api.urls).toContain('/api/vets/customers/4');
    expect(router.state.location.pathname).toBe('/vet');
  });

  it("loads the vet's customers page by page with Load more customers, following X-Next-Cursor", async () => {
    const rita = {
      user_id: 5,
      name: 'Rita Sousa',
      email: 'rita@x.test',
      phone: '912345678',
      address: 'Rua A',
      tax_id: '1',
    };
    const tiago = {
      user_id: 9,
      name: 'Tiago Reis',
      email: 'tiago@x.test',
      phone: '912000000',
      address: 'Rua B',
      tax_id: '2',
    };
    const api = serverWithVet(false).raw('GET', /^\/api\/vets\/customers\/4/, ({ url }) => {
      const second = new URL(url, 'http://x').searchParams.get('cursor') === 'after-rita';
      const body = z.array(vetCustomerSchema).parse(second ? [tiago] : [rita]);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (!second) headers[NEXT_CURSOR_HEADER] = 'after-rita';
      return new Response(JSON.stringify(body), { status: 200, headers });
    });
    renderRoutes(routes, '/vet?mode=customers');
    const table = await screen.findByRole('table', { name: 'Your customers' });
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: 'Load more customers' }));
    expect(await within(table).findByText('Tiago Reis')).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(api.urls).toContain('/api/vets/customers/4?cursor=after-rita');
    // The second page sent no cursor: it was the last.
    expect(screen.queryByRole('button', { name: 'Load more customers' })).toBeNull();
  });

  it("lists the vet's appointments of the default window, filters them by status and opens one", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    const api = serverWithVet(false);
    renderRoutes(routes, '/vet?mode=appointments');
    expect(await screen.findByText('Tareco')).toBeTruthy();
    expect(api.urls).toContain(
      `/api/vets/appointments/4?from=2026-11-06&to=2026-12-06&lang=en&tz=${encodeURIComponent(browserTimeZone())}`,
    );
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'TK_Confirmed');
    expect(screen.queryByText('Tareco')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Details of appointment 1 (Bolinha)' }));
    expect(await screen.findByRole('dialog', { name: 'Appointment 1' })).toBeTruthy();
    expect(api.urls).toContain('/api/appointments/byid/1?lang=en');
  });
});
