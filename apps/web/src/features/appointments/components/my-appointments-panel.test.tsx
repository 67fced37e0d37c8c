import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import {
  type AppointmentDto,
  appointmentFileSchema,
  appointmentSchema,
  type MyAppointmentItem,
  myAppointmentPageSchema,
} from '@vetcall/shared/schemas/appointment';
import { browserTimeZone, formatDateTime } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { loadTestClientConfig } from '../../../test/client-config';
import { lifecycleOf } from '../../../test/appointment-fixtures';
import { fakeApi, refusal } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { MyAppointmentsPanel } from './my-appointments-panel';

function item(id: number, overrides: Partial<MyAppointmentItem> = {}): MyAppointmentItem {
  return {
    appointment_id: id,
    schedule: '2026-11-25T10:00:00.000Z',
    pet_id: 7,
    pet_name: 'Bolinha',
    vet_user_id: 3,
    vet_name: 'Dr. Rui',
    appointment_status_key: 'TK_Confirmed',
    appointment_status: 'Confirmed',
    price: 2500,
    cancel: { allowed: true, refund: true },
    reschedule: { allowed: false, reason: 'invalid_transition' },
    ...overrides,
  };
}

const refunded = item(1);
const lateAndPaid = item(2, {
  schedule: '2026-11-21T15:00:00.000Z',
  pet_name: 'Tareco',
  vet_name: 'Dra. Ana',
  appointment_status_key: 'TK_Requested',
  appointment_status: 'Requested',
  cancel: { allowed: true, refund: false },
});
const unpaid = item(3, {
  schedule: '2026-11-21T16:00:00.000Z',
  pet_name: 'Max',
  appointment_status_key: 'TK_PendingPayment',
  appointment_status: 'Waiting for payment',
  cancel: { allowed: true, refund: false },
});
const inRoom = item(4, {
  schedule: '2026-11-21T11:30:00.000Z',
  pet_name: 'Nina',
  cancel: { allowed: false, reason: 'cancellation_closed' },
});
const completed = item(5, {
  schedule: '2026-10-02T09:00:00.000Z',
  pet_name: 'Faísca',
  appointment_status_key: 'TK_Completed',
  appointment_status: 'Completed',
  cancel: { allowed: false, reason: 'invalid_transition' },
});

/** The server: two pages of upcoming, one of past; a cancel turns the row canceled. */
function fakeServer() {
  let canceled: number | undefined;
  const { cancel: _terms, reschedule: _moves, ...listed } = refunded;
  const detail: AppointmentDto = {
    ...listed,
    id: 1,
    hash: 'h'.repeat(22),
    duration_minutes: 30,
    customer_user_id: 5,
    customer_name: 'Rita Sousa',
    customerEmail: 'rita@x.test',
    pet_policy: null,
    vetEmail: 'rui@x.test',
    description: 'Itching since Monday',
    status_date: '2026-11-18T09:00:00.000Z',
    calendar_event_id: null,
    timezone_diff: 0,
    viewer: 'customer',
    customer_pin: null,
    lifecycle: lifecycleOf(),
  };
  const current = (row: MyAppointmentItem): MyAppointmentItem =>
    row.appointment_id === canceled
      ? {
          ...row,
          appointment_status_key: 'TK_Canceled',
          appointment_status: 'Canceled',
          cancel: { allowed: false, reason: 'invalid_transition' },
        }
      : row;
  const api = fakeApi()
    .answer('GET', /^\/api\/appointments\/mine\?/, myAppointmentPageSchema, ({ url }) => {
      const query = new URL(url, 'http://x').searchParams;
      if (query.get('when') === 'past') return { items: [completed], next_cursor: null };
      return query.get('cursor') === 'page-2'
        ? { items: [refunded].map(current), next_cursor: null }
        : { items: [inRoom, lateAndPaid, unpaid].map(current), next_cursor: 'page-2' };
    })
    .answer('GET', '/api/appointments/byid/1', appointmentSchema, detail)
    .answer('GET', '/api/appointments/files/1', z.array(appointmentFileSchema), [])
    .answer('POST', /^\/api\/appointments\/(\d+)\/cancel\?lang=en$/, appointmentSchema, ({ match }) => {
      canceled = Number(match[1]);
      return { ...detail, appointment_id: canceled, id: canceled, appointment_status_key: 'TK_Canceled' as const };
    });
  return api;
}

const mineUrls = (urls: string[]) => urls.filter((url) => url.startsWith('/api/appointments/mine'));

describe('MyAppointmentsPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
    notifications.cleanQueue();
  });

  it('lists upcoming ones in the customer’s zone, named; Load more follows the cursor; Past by keyboard', async () => {
    const api = fakeServer();
    render(withProviders(<MyAppointmentsPanel />));
    const region = await screen.findByRole('region', { name: 'My appointments, scrollable' });
    expect(region.tabIndex).toBe(0);
    expect(screen.getByText(`Times are shown in your time zone (${browserTimeZone()}).`)).toBeTruthy();
    const rows = within(region).getAllByRole('row');
    expect(rows[1]!.textContent).toContain(`${formatDateTime(inRoom.schedule, 'en')}NinaDr. RuiConfirmed€25.00`);
    expect(rows[2]!.textContent).toContain('TarecoDra. AnaRequested');
    // Cancel only where the server’s terms allow it: not once the appointment started.
    expect(within(rows[1]!).queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(within(rows[2]!).getByRole('button', { name: /^Cancel the appointment of Tareco on / })).toBeTruthy();
    expect(mineUrls(api.urls)).toEqual(['/api/appointments/mine?when=upcoming&lang=en']);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(region).findByText('Bolinha')).toBeTruthy();
    expect(mineUrls(api.urls)[1]).toBe('/api/appointments/mine?when=upcoming&lang=en&cursor=page-2');

    const upcomingTab = screen.getByRole('tab', { name: 'Upcoming' });
    expect(upcomingTab.getAttribute('aria-selected')).toBe('true');
    upcomingTab.focus();
    await userEvent.keyboard('{ArrowRight}{Enter}');
    expect(screen.getByRole('tab', { name: 'Past' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('Faísca')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(mineUrls(api.urls).at(-1)).toBe('/api/appointments/mine?when=past&lang=en');
  });

  it('opens a row in the appointment detail', async () => {
    fakeServer();
    render(withProviders(<MyAppointmentsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await userEvent.click(await screen.findByText('Bolinha'));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 1' });
    expect(await within(dialog).findByText('Itching since Monday')).toBeTruthy();
  });

  it('asks before cancelling, sends the reason, toasts and refreshes the list', async () => {
    const api = fakeServer();
    render(withProviders(<MyAppointmentsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel the appointment of Bolinha on / }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    expect(within(dialog).getByText('The €25.00 you paid will be refunded in full.')).toBeTruthy();
    expect(within(dialog).queryByRole('alert')).toBeNull();
    await userEvent.type(within(dialog).getByLabelText(/^Reason \(optional\)/), '  Bolinha is better  ');
    const before = mineUrls(api.urls).length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));

    expect(await screen.findByText('The appointment was cancelled.')).toBeTruthy();
    expect(api.calls).toContainEqual({
      method: 'POST',
      url: '/api/appointments/1/cancel?lang=en',
      body: { reason: 'Bolinha is better' },
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel this appointment?' })).toBeNull());
    await waitFor(() => expect(mineUrls(api.urls).length).toBeGreaterThan(before));
    expect(await screen.findByText('Canceled')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Cancel the appointment of Bolinha/ })).toBeNull();
  });

  it('warns that a paid appointment cancelled late is not refunded; says nothing of money for an unpaid one', async () => {
    fakeServer();
    render(withProviders(<MyAppointmentsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel the appointment of Tareco on / }));
    let dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    const warning = within(dialog).getByRole('alert');
    expect(warning.textContent).toContain('No refund');
    expect(warning.textContent).toContain('the €25.00 you paid will not be refunded');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the appointment' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel this appointment?' })).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: /^Cancel the appointment of Max on / }));
    dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).queryByText(/refunded/)).toBeNull();
  });

  it('shows the server’s reason when cancelling is refused', async () => {
    fakeServer().answer('POST', /^\/api\/appointments\/2\/cancel/, appointmentSchema, () =>
      refusal(409, { error: 'cancellation_closed', message: 'Too late' }),
    );
    render(withProviders(<MyAppointmentsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: /^Cancel the appointment of Tareco on / }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    expect(await within(dialog).findByText('This appointment can no longer be cancelled.')).toBeTruthy();
  });
});
