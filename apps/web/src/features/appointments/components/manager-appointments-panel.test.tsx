import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import {
  type AppointmentDto,
  type AppointmentListItem,
  appointmentFileSchema,
  appointmentPageSchema,
  appointmentSchema,
} from '@vetcall/shared/schemas/appointment';
import { userRowSchema } from '@vetcall/shared/schemas/staff';
import { browserTimeZone } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { loadTestClientConfig } from '../../../test/client-config';
import { lifecycleOf } from '../../../test/appointment-fixtures';
import { fakeApi } from '../../../test/fake-api';
import { initTestI18n, withProviders } from '../../../test/render';
import { PHONE_WIDTH, setViewportWidth } from '../../../test/viewport';
import { writeDate } from '../../../test/user-input';
import { ManagerAppointmentsPanel } from './manager-appointments-panel';

function item(id: number, overrides: Partial<AppointmentListItem> = {}): AppointmentListItem {
  return {
    appointment_id: id,
    schedule: '2026-11-20T10:00:00.000Z',
    customer_user_id: 5,
    customer_name: 'Rita Sousa',
    pet_id: 7,
    pet_name: 'Bolinha',
    vet_user_id: 3,
    vet_name: 'Dr. Rui',
    appointment_status_key: 'TK_Confirmed',
    appointment_status: 'Confirmed',
    status_date: '2026-11-18T09:00:00.000Z',
    price: 2500,
    ...overrides,
  };
}

/** The server at the network boundary; every URL asked is recorded. */
function fakeServer() {
  const detail: AppointmentDto = {
    ...item(1),
    id: 1,
    hash: 'h'.repeat(22),
    duration_minutes: 30,
    customerEmail: 'rita@x.test',
    pet_policy: null,
    vetEmail: 'rui@x.test',
    description: 'Itching',
    lifecycle: lifecycleOf(),
    calendar_event_id: null,
    timezone_diff: 0,
    viewer: 'manager',
    vet_observations: 'Mild dermatitis.',
  };
  const api = fakeApi()
    .answer('GET', '/api/users/vet', z.array(userRowSchema), [
      {
        user_id: 3,
        type: 'vet',
        name: 'Dr. Rui',
        email: 'rui@x.test',
        active: true,
        phone: '',
        specialty: 'Dermatology',
      },
      {
        user_id: 42,
        type: 'vet',
        name: 'Dra. Ana',
        email: 'ana@x.test',
        active: true,
        phone: '',
        specialty: 'Surgery',
      },
    ])
    .answer('GET', /^\/api\/appointments\/mngrecord\//, appointmentPageSchema, ({ url }) =>
      new URL(url, 'http://x').searchParams.get('cursor') === 'page-2'
        ? { items: [item(2, { pet_name: 'Tareco' })], next_cursor: null }
        : { items: [item(1)], next_cursor: 'page-2' },
    )
    .answer('GET', '/api/appointments/byid/1', appointmentSchema, detail)
    .answer('GET', '/api/appointments/files/1', z.array(appointmentFileSchema), [])
    // The Excel file has no JSON contract. (A jsdom Blob is not a body Node's Response can read.)
    .raw(
      'GET',
      /^\/api\/exports\/appointments\?/,
      () =>
        new Response('xlsx', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="20261121120000-appointments.xlsx"' },
        }),
    );
  return api;
}

const mngrecordUrls = (urls: string[]) => urls.filter((url) => url.startsWith('/api/appointments/mngrecord/'));
const dateInput = (name: RegExp) => screen.getByLabelText(name) as HTMLInputElement;

// Six date writes and a reset through Mantine fields: a busy machine needs more than the default 5 s.
describe('ManagerAppointmentsPanel', { timeout: 15_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    // Only the date is frozen: Mantine and Testing Library keep their real timers.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-21T12:00:00Z'));
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 1, type: 'manager', name: 'Mia', email: 'mia@x.test', locale: 'en' });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('asks for 15 days either side of today, all vets, in the viewer zone; Load more follows the cursor', async () => {
    const api = fakeServer();
    render(withProviders(<ManagerAppointmentsPanel />));
    expect(dateInput(/^From/).value).toBe('11/06/2026');
    expect(dateInput(/^To/).value).toBe('12/06/2026');
    const region = await screen.findByRole('region', { name: 'Appointments, scrollable' });
    expect(region.tabIndex).toBe(0);
    expect(await within(region).findByText('Bolinha')).toBeTruthy();
    const tz = encodeURIComponent(browserTimeZone());
    expect(mngrecordUrls(api.urls)).toEqual([`/api/appointments/mngrecord/2026-11-06_2026-12-06_all?lang=en&tz=${tz}`]);

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(region).findByText('Tareco')).toBeTruthy();
    expect(mngrecordUrls(api.urls)[1]).toBe(
      `/api/appointments/mngrecord/2026-11-06_2026-12-06_all?lang=en&tz=${tz}&cursor=page-2`,
    );
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });

  it('builds the mngrecord parameter from the vet and dates; Reset filter restores the default window', async () => {
    const api = fakeServer();
    render(withProviders(<ManagerAppointmentsPanel />));
    await screen.findByText('Bolinha');
    const vetSelect = screen.getByLabelText('Vet') as HTMLSelectElement;
    await waitFor(() => expect(vetSelect.options).toHaveLength(3));
    await userEvent.selectOptions(vetSelect, '42');
    await writeDate(dateInput(/^From/), '10/01/2026');
    await writeDate(dateInput(/^To/), '11/30/2026');
    await waitFor(() =>
      expect(mngrecordUrls(api.urls).at(-1)).toMatch(/^\/api\/appointments\/mngrecord\/2026-10-01_2026-11-30_42\?/),
    );

    // A date past one month ahead is not taken (the field keeps its date); a reversed window is not asked for.
    const asked = mngrecordUrls(api.urls).length;
    await writeDate(dateInput(/^To/), '12/22/2026');
    expect(dateInput(/^To/).value).toBe('11/30/2026');
    await writeDate(dateInput(/^To/), '09/30/2026');
    expect(await screen.findByText('The end date must not be before the start date.')).toBeTruthy();
    expect(mngrecordUrls(api.urls)).toHaveLength(asked);
    expect(screen.queryByRole('button', { name: 'Export to Excel' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Reset filter' }));
    expect(dateInput(/^From/).value).toBe('11/06/2026');
    expect(dateInput(/^To/).value).toBe('12/06/2026');
    expect(vetSelect.value).toBe('');
    await userEvent.click(await screen.findByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(api.urls.some((url) => url.startsWith('/api/exports/appointments?'))).toBe(true));
    const exported = new URL(
      api.urls.find((url) => url.startsWith('/api/exports/appointments?'))!,
      'http://x',
    );
    expect(exported.searchParams.get('param')).toBe('2026-11-06_2026-12-06_all');
    expect(exported.searchParams.get('tz')).toBe(browserTimeZone());
  });

  it('on a phone, lists the appointments as cards, each with its Details button', async () => {
    setViewportWidth(PHONE_WIDTH);
    fakeServer();
    render(withProviders(<ManagerAppointmentsPanel />));
    const region = await screen.findByRole('region', { name: 'Appointments, scrollable' });
    const list = await within(region).findByRole('list', { name: 'Appointments' });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(within(list).getAllByRole('listitem')[0]!);
    expect(card.getByText('Bolinha')).toBeTruthy();
    expect(card.getByText('Dr. Rui')).toBeTruthy();
    await userEvent.click(card.getByRole('button', { name: 'Details of appointment 1 (Bolinha)' }));
    expect(await screen.findByRole('dialog', { name: 'Appointment 1' })).toBeTruthy();
  });

  it('opens a row read-only: observations shown, nothing to modify', async () => {
    fakeServer();
    render(withProviders(<ManagerAppointmentsPanel />));
    await userEvent.click(await screen.findByRole('button', { name: 'Details of appointment 1 (Bolinha)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appointment 1' });
    expect(await within(dialog).findByText('Mild dermatitis.')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Modify data' })).toBeNull();
  });
});
