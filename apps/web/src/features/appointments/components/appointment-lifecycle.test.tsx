import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { z } from 'zod';
import { type AppointmentDto, appointmentFileSchema, appointmentSchema } from '@vetcall/shared/schemas/appointment';
import { freeSlotSchema, holdSchema } from '@vetcall/shared/schemas/scheduling';
import { formatDateTime } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { APPOINTMENT_12, lifecycleOf } from '../../../test/appointment-fixtures';
import { loadTestClientConfig } from '../../../test/client-config';
import { fakeApi, refusal } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { AppointmentDetailModal } from './appointment-detail';

const base = APPOINTMENT_12;

const vetView: AppointmentDto = {
  ...base,
  viewer: 'vet',
  vet_observations: '',
  vet_pin: '654321',
  lifecycle: lifecycleOf({
    can: {
      cancel: { allowed: true, refund: true },
      reschedule: { allowed: true },
      complete: { allowed: true },
    },
  }),
};

const NEW_START = '2026-11-27T15:00:00.000Z';

/** The server: the appointment, a free slot on any date, holds, and the lifecycle calls, recorded. */
function fakeServer(appointment: AppointmentDto) {
  return fakeApi()
    .answer('GET', '/api/appointments/byid/12', appointmentSchema, appointment)
    .answer('GET', '/api/appointments/files/12', z.array(appointmentFileSchema), [])
    .answer('GET', /^\/api\/vets\/2\/slots\?/, z.array(freeSlotSchema), ({ url }) => {
      const from = new URL(url, 'http://x').searchParams.get('from')!;
      return [{ start: NEW_START, end: '2026-11-27T15:30:00.000Z', date: from, local_start: '15:00' }];
    })
    .answer('POST', '/api/scheduling/holds', holdSchema, {
      event_id: 'new-time-hold',
      vet_id: 2,
      start: NEW_START,
      end: '2026-11-27T15:30:00.000Z',
      expires_at: '2026-11-20T09:15:00.000Z',
    })
    .answer('POST', '/api/appointments/12/reschedule?lang=en', appointmentSchema, {
      ...appointment,
      schedule: NEW_START,
    })
    .answer('POST', '/api/appointments/12/complete?lang=en', appointmentSchema, {
      ...appointment,
      appointment_status_key: 'TK_Completed',
    })
    .answer('POST', '/api/appointments/12/cancel?lang=en', appointmentSchema, {
      ...appointment,
      appointment_status_key: 'TK_Canceled',
    });
}

async function openDetail() {
  render(withProviders(<AppointmentDetailModal appointmentId={12} onClose={vi.fn()} />));
  const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
  return within(await within(dialog).findByRole('group', { name: 'What you can do with this appointment' }));
}

describe('AppointmentLifecycle', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 3, type: 'vet', name: 'Rui', email: 'rui@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
    notifications.cleanQueue();
  });

  it('offers the vet what the server allows, and marks the appointment done', async () => {
    const api = fakeServer(vetView);
    const actions = await openDetail();
    expect(actions.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Reschedule',
      'Mark as done',
      'Cancel appointment',
    ]);
    await userEvent.click(actions.getByRole('button', { name: 'Mark as done' }));
    expect(await screen.findByText('The appointment was marked as done.')).toBeTruthy();
    expect(api.calls).toContainEqual({ method: 'POST', url: '/api/appointments/12/complete?lang=en', body: undefined });
  });

  it('shows no actions where the server allows none', async () => {
    fakeServer({ ...vetView, lifecycle: lifecycleOf() });
    render(withProviders(<AppointmentDetailModal appointmentId={12} onClose={vi.fn()} />));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    await within(dialog).findByText('Itching since Monday');
    expect(within(dialog).queryByRole('group', { name: 'What you can do with this appointment' })).toBeNull();
  });

  it('moves it: picks a free slot, holds it, reschedules to the hold', async () => {
    const api = fakeServer(vetView);
    const actions = await openDetail();
    await userEvent.click(actions.getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the appointment' });
    expect(within(dialog).getByText(/The price does not change\. The PINs stay the same/)).toBeTruthy();
    await userEvent.click(await within(dialog).findByRole('button', { name: '15:00' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move here' }));
    expect(await screen.findByText(`The appointment was moved to ${formatDateTime(NEW_START, 'en')}.`)).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: '/api/scheduling/holds', body: { vet_id: 2, profile_id: 4, start: NEW_START } },
      { method: 'POST', url: '/api/appointments/12/reschedule?lang=en', body: { event_id: 'new-time-hold' } },
    ]);
  });

  it('gives the hold back when the move is refused, and says why', async () => {
    const api = fakeServer(vetView)
      .answer('POST', '/api/appointments/12/reschedule?lang=en', appointmentSchema, () =>
        refusal(409, { error: 'reschedule_closed', message: 'closed' }),
      )
      .answer('DELETE', '/api/scheduling/holds/new-time-hold', z.null(), null);
    const actions = await openDetail();
    await userEvent.click(actions.getByRole('button', { name: 'Reschedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move the appointment' });
    await userEvent.click(await within(dialog).findByRole('button', { name: '15:00' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move here' }));
    expect(await within(dialog).findByText('The time to move this appointment has passed.')).toBeTruthy();
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        method: 'DELETE',
        url: '/api/scheduling/holds/new-time-hold',
        body: undefined,
      }),
    );
  });

  it('tells staff the customer is refunded, and cancels with the reason', async () => {
    const api = fakeServer(vetView);
    const actions = await openDetail();
    await userEvent.click(actions.getByRole('button', { name: 'Cancel appointment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this appointment?' });
    expect(within(dialog).getByText('The customer will be refunded the €25.00 paid, in full.')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Reason/ }), 'Vet is ill');
    expect(within(dialog).getByText('Told to the customer.')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel the appointment' }));
    await waitFor(() =>
      expect(api.calls).toContainEqual({
        method: 'POST',
        url: '/api/appointments/12/cancel?lang=en',
        body: { reason: 'Vet is ill' },
      }),
    );
  });

  it('tells what became of a cancelled appointment: by whom, why, and the refund', async () => {
    fakeServer({
      ...vetView,
      appointment_status_key: 'TK_Canceled',
      lifecycle: lifecycleOf({
        canceled_at: '2026-11-19T08:00:00.000Z',
        canceled_by_name: 'Rita Sousa',
        cancel_reason: 'Bolinha is better',
        refund_status: 'refunded',
        refunded_at: '2026-11-19T08:00:05.000Z',
      }),
    });
    render(withProviders(<AppointmentDetailModal appointmentId={12} onClose={vi.fn()} />));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(
      await within(dialog).findByText(
        `Cancelled by Rita Sousa on ${formatDateTime('2026-11-19T08:00:00.000Z', 'en')}.`,
      ),
    ).toBeTruthy();
    expect(within(dialog).getByText('Reason: Bolinha is better')).toBeTruthy();
    expect(within(dialog).getByText(`Refunded on ${formatDateTime('2026-11-19T08:00:05.000Z', 'en')}.`)).toBeTruthy();
  });
});
