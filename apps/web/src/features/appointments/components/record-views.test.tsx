import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from '@mantine/core';
import { z } from 'zod';
import { type AppointmentDto, appointmentFileSchema, appointmentSchema } from '@vetcall/shared/schemas/appointment';
import { type PetRecord, petRecordSchema } from '@vetcall/shared/schemas/pet';
import { storage } from '../../../lib/storage';
import { loadTestClientConfig } from '../../../test/client-config';
import { APPOINTMENT_12, lifecycleOf } from '../../../test/appointment-fixtures';
import { fakeApi } from '../../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../../test/render';
import { RecordViewModals, useRecordViews } from './record-views';

const record: PetRecord = {
  pet: {
    pet_id: 7,
    user_id: 5,
    customer_id: 2,
    name: 'Bolinha',
    species: 'Dog',
    breed_id: null,
    breed: 'Mixed',
    gender: 'F',
    birth: '2020-05-01',
    fertile_status: 'intact',
    weight: 12.5,
    policy: null,
    archived: false,
  },
  age: { years: 6, months: 6 },
  history: [
    {
      appointment_id: 12,
      hash: 'h'.repeat(22),
      schedule: '2026-11-21T11:30:00.000Z',
      vet_user_id: 3,
      vet_name: 'Dr. Rui',
      appointment_status_key: 'TK_Confirmed',
      status_date: '2026-11-18T09:00:00.000Z',
      join_pin: '123456',
    },
    {
      appointment_id: 11,
      hash: 'g'.repeat(22),
      schedule: '2026-10-01T10:00:00.000Z',
      vet_user_id: 3,
      vet_name: 'Dr. Rui',
      appointment_status_key: 'TK_Completed',
      status_date: '2026-10-01T11:00:00.000Z',
      join_pin: null,
    },
  ],
  history_next_cursor: null,
};

const appointment: AppointmentDto = {
  ...APPOINTMENT_12,
  schedule: '2026-11-21T11:30:00.000Z',
  lifecycle: lifecycleOf(),
  viewer: 'customer',
  customer_pin: '123456',
};

function server() {
  fakeApi()
    .answer('GET', '/api/pets/record/7/en', petRecordSchema, record)
    .answer('GET', '/api/appointments/byid/12', appointmentSchema, appointment)
    .answer('GET', '/api/appointments/files/12', z.array(appointmentFileSchema), []);
}

function Opener() {
  const views = useRecordViews();
  return (
    <>
      <Button onClick={() => views.open({ kind: 'pet', petId: 7 })}>Open record</Button>
      <RecordViewModals views={views} />
    </>
  );
}

describe('pet record and appointment detail, one from the other', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('loads older history with Load more appointments, following history_next_cursor', async () => {
    const older = {
      ...record.history[1]!,
      appointment_id: 10,
      hash: 'f'.repeat(22),
      schedule: '2026-09-01T10:00:00.000Z',
    };
    const api = fakeApi().answer('GET', /^\/api\/pets\/record\/7\/en/, petRecordSchema, ({ url }) =>
      url.endsWith('?cursor=after-11')
        ? { ...record, history: [older], history_next_cursor: null }
        : { ...record, history_next_cursor: 'after-11' },
    );
    renderRoutes([{ path: '/customerdata', element: <Opener /> }], '/customerdata');
    await userEvent.click(screen.getByRole('button', { name: 'Open record' }));
    const recordDialog = await screen.findByRole('dialog', { name: 'Record of Bolinha' });
    const history = await within(recordDialog).findByRole('table', { name: 'Appointment history' });
    expect(within(history).getAllByRole('row')).toHaveLength(3);
    await userEvent.click(within(recordDialog).getByRole('button', { name: 'Load more appointments' }));
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(4));
    expect(api.urls).toEqual(['/api/pets/record/7/en', '/api/pets/record/7/en?cursor=after-11']);
    expect(within(recordDialog).queryByRole('button', { name: 'Load more appointments' })).toBeNull();
  });

  it('links to the call only with a join PIN, opens Details, and Record goes back to the same record', async () => {
    server();
    renderRoutes([{ path: '/customerdata', element: <Opener /> }], '/customerdata');
    await userEvent.click(screen.getByRole('button', { name: 'Open record' }));
    const recordDialog = await screen.findByRole('dialog', { name: 'Record of Bolinha' });
    const history = await within(recordDialog).findByRole('table', { name: 'Appointment history' });
    const [, confirmed, completed] = within(history).getAllByRole('row');
    expect(within(confirmed!).getByRole('link', { name: 'Join' }).getAttribute('href')).toBe(
      '/appointment/123456?lang=en',
    );
    expect(within(confirmed!).getByText('Confirmed')).toBeTruthy();
    expect(within(completed!).queryByRole('link')).toBeNull();
    expect(within(completed!).getByText('Link not available')).toBeTruthy();

    await userEvent.click(within(confirmed!).getByRole('button', { name: /^Details of the appointment of/ }));
    const detail = await screen.findByRole('dialog', { name: 'Appointment 12' });
    expect(await within(detail).findByText('Itching since Monday')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Record of Bolinha' })).toBeNull());

    await userEvent.click(within(detail).getByRole('button', { name: 'Record of Bolinha' }));
    const recordAgain = await screen.findByRole('dialog', { name: 'Record of Bolinha' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Appointment 12' })).toBeNull());
    // Back to the record the detail was opened from; closing it closes everything.
    await userEvent.click(within(recordAgain).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
