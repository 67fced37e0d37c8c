import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { z } from 'zod';
import {
  type AppointmentInfo,
  appointmentInfoSchema,
  confirmAppointmentResultSchema,
} from '@vetcall/shared/schemas/booking';
import { fakeApi, type Refusal, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { ConfirmAppointmentPage } from './confirm-appointment-page';

const HASH = 'appt_hash_0123456789';
const NOW = new Date('2030-03-01T09:00:00.000Z');
const info: AppointmentInfo = {
  hash: HASH,
  schedule: '2030-03-14T10:30:00.000Z',
  duration_minutes: 30,
  status: 'TK_Requested',
  vet_name: 'Dr. Vet',
  pet_name: 'Rex',
  vet_timezone: 'Europe/Lisbon',
};

/** The browser's wall clock of an instant as a datetime-local value. */
const wallClock = (iso: string) => {
  const instant = new Date(iso);
  return new Date(instant.getTime() - instant.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

type ConfirmAnswer = z.input<typeof confirmAppointmentResultSchema> | Refusal;

/** The confirmation routes: the appointment's public info, and the confirm answers in turn (the last repeats). */
function fakeServer(appointment: AppointmentInfo, confirmAnswers: ConfirmAnswer[]) {
  const confirmBodies: unknown[] = [];
  const api = fakeApi()
    .answer('GET', `/api/appointments/info/${HASH}`, appointmentInfoSchema, appointment)
    .answer('POST', `/api/appointments/confirm/${HASH}`, confirmAppointmentResultSchema, ({ body }) => {
      confirmBodies.push(body);
      return confirmAnswers[Math.min(confirmBodies.length - 1, confirmAnswers.length - 1)]!;
    });
  /** The authorization header of every call so far. */
  const authHeaders = () =>
    api.fetch.mock.calls.map(([, init]) => (init?.headers as Record<string, string> | undefined)?.authorization);
  return { confirmBodies, authHeaders };
}

const routes = [
  { path: '/confirmappointment/:hash', element: <ConfirmAppointmentPage /> },
  { path: '/appointment/:pin?', element: <p>appointment entry</p> },
];

const main = () => within(screen.getByRole('main'));
const dateInput = () => screen.getByLabelText('Date') as HTMLInputElement;
const timeSelect = () => screen.getByLabelText('Time (24-hour)') as HTMLSelectElement;
/** 'YYYY-MM-DDTHH:mm' as the English form shows it: the date field reads MM/DD/YYYY. */
const shown = (value: string) => {
  const [year, month, day, time] = value.split(/[-T]/) as [string, string, string, string];
  return `${month}/${day}/${year} ${time}`;
};
const scheduleShown = () => `${dateInput().value} ${timeSelect().value}`;
/**
 * Writes the date as the field shows it and picks the time from the list. One change event: focusing the
 * field would open its calendar, which makes the test slow on a busy machine and adds nothing here.
 */
function setSchedule(value: string) {
  const [date, time] = shown(value).split(' ') as [string, string];
  fireEvent.change(dateInput(), { target: { value: date } });
  fireEvent.change(timeSelect(), { target: { value: time } });
}
const emailInput = () => screen.getByLabelText(/^Registered email/) as HTMLInputElement;

async function submitWith(email: string) {
  await userEvent.click(emailInput());
  await userEvent.paste(email);
  await userEvent.click(screen.getByRole('button', { name: 'Confirm appointment' }));
}

describe('ConfirmAppointmentPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(() => {
    // Only Date is frozen: timers stay real for the user events.
    vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('confirms with the booked time in the browser zone and links to the appointment', async () => {
    const { confirmBodies, authHeaders } = fakeServer(info, [{ appointment_pin: '123456' }]);
    renderRoutes(routes, `/confirmappointment/${HASH}`);

    expect(await screen.findByText('Rex')).toBeTruthy();
    expect(screen.getByText('Dr. Vet')).toBeTruthy();
    expect(screen.getByText('Requested')).toBeTruthy();
    expect(scheduleShown()).toBe(shown(wallClock(info.schedule)));
    // docs/product-rules.md#confirmation-page: a 24-hour picker, whatever the browser's language.
    expect([...timeSelect().options].map((option) => option.text)).toContain('23:55');
    expect([...timeSelect().options].some((option) => /AM|PM/.test(option.text))).toBe(false);

    await submitWith('vet@x.test');

    const status = await main().findByRole('status');
    expect(status.textContent).toContain('Appointment confirmed');
    expect(status.textContent).toContain('was sent to you and to the customer');
    expect(screen.getByRole('link', { name: 'Access appointment' }).getAttribute('href')).toBe('/appointment/123456');
    expect(confirmBodies).toEqual([
      {
        hash: HASH,
        email: 'vet@x.test',
        schedule: wallClock(info.schedule).replace('T', ' '),
        timezone_diff: 0 - new Date(info.schedule).getTimezoneOffset() * 60,
      },
    ]);
    expect(authHeaders().every((header) => header === undefined)).toBe(true);
  });

  it('says it cannot activate the appointment, and goes back to the form with the values kept', async () => {
    const { confirmBodies } = fakeServer(info, [
      refusal(400, { error: 'cant_activate_appointment', message: 'no' }),
      { appointment_pin: '654321' },
    ]);
    renderRoutes(routes, `/confirmappointment/${HASH}`);
    await screen.findByText('Rex');
    setSchedule('2030-03-15T16:45');

    await submitWith('wrong@x.test');

    const alert = await main().findByRole('alert');
    expect(alert.textContent).toContain('Cant activate this appointment!');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Check inserted email' }));
    await userEvent.click(screen.getByRole('button', { name: 'Check inserted email' }));

    expect(emailInput().value).toBe('wrong@x.test');
    expect(scheduleShown()).toBe('03/15/2030 16:45');
    expect(document.activeElement).toBe(emailInput());

    await userEvent.clear(emailInput());
    await submitWith('vet@x.test');
    expect(await screen.findByRole('link', { name: 'Access appointment' })).toBeTruthy();
    expect(confirmBodies).toHaveLength(2);
    expect(confirmBodies[1]).toMatchObject({ email: 'vet@x.test', schedule: '2030-03-15 16:45' });
  });

  it('shows a taken slot on the form', async () => {
    fakeServer(info, [refusal(409, { error: 'slot_taken', message: 'taken' })]);
    renderRoutes(routes, `/confirmappointment/${HASH}`);
    await screen.findByText('Rex');

    await submitWith('vet@x.test');

    expect((await main().findByRole('alert')).textContent).toBe(
      'This time has just been taken. Please choose another slot.',
    );
    expect(emailInput().value).toBe('vet@x.test');
    expect(document.activeElement).toBe(dateInput());
  });

  it('checks the email and the time before sending', async () => {
    const { confirmBodies } = fakeServer(info, [{ appointment_pin: '123456' }]);
    renderRoutes(routes, `/confirmappointment/${HASH}`);
    await screen.findByText('Rex');
    // Earlier today: the date field offers nothing before today, the time list does.
    setSchedule(wallClock('2030-03-01T08:00:00.000Z'));

    await submitWith('a@b.c');

    expect(await screen.findByText('Too short.')).toBeTruthy();
    expect(screen.getByText('Choose a time that has not passed yet.')).toBeTruthy();
    expect(confirmBodies).toEqual([]);
  });

  it('tells the vet an appointment is already confirmed, and confirms it again', async () => {
    fakeServer({ ...info, status: 'TK_Confirmed' }, [{ appointment_pin: '123456' }]);
    renderRoutes(routes, `/confirmappointment/${HASH}`);

    expect(await screen.findByText(/This appointment is already confirmed/)).toBeTruthy();
    await submitWith('vet@x.test');
    expect(await screen.findByRole('link', { name: 'Access appointment' })).toBeTruthy();
  });

  it('offers no form for an appointment that cannot be confirmed', async () => {
    fakeServer({ ...info, status: 'TK_Canceled' }, []);
    renderRoutes(routes, `/confirmappointment/${HASH}`);

    expect((await main().findByRole('alert')).textContent).toBe('This appointment cannot be confirmed.');
    expect(screen.queryByLabelText(/^Registered email/)).toBeNull();
  });

  it('says when the link is not valid', async () => {
    fakeApi();
    renderRoutes(routes, `/confirmappointment/${HASH}`);

    expect((await main().findByRole('alert')).textContent).toBe('This confirmation link is not valid.');
  });
});
