import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { accessCodeValidationSchema } from '@vetcall/shared/schemas/access-code';
import { appointmentCreatedSchema, quoteSchema } from '@vetcall/shared/schemas/booking';
import type { Pet } from '@vetcall/shared/schemas/pet';
import { vetUserIdsSchema } from '@vetcall/shared/schemas/scheduling';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, type Refusal, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { BookingForm } from './booking-form';
import type { BookingDraft } from './booking-draft';
import { forgetSchedulerEvents } from './scheduler-events';

/** Three days ahead: inside the booking window (tests run with TZ=UTC). */
const DATE = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
/** DATE as it is typed in the English date field (MM/DD/YYYY). */
const TYPED_DATE = DATE.replace(/^(\d{4})-(\d{2})-(\d{2})$/, '$2/$3/$1');

const pet = { pet_id: 7, name: 'Bolinha', archived: false } as Pet;
const vets = [
  { user_id: 11, vet_id: 2, name: 'Dr. Rui', specialty: 'Dermatology' },
  { user_id: 12, vet_id: 3, name: 'Dra. Ana', specialty: '' },
];

interface Calls {
  created: { data: Record<string, unknown>; files: string[] }[];
  availabilityFetches: number;
}

function server(options: { availableVetIds?: number[]; refuseCreate?: Refusal } = {}): Calls {
  const calls: Calls = { created: [], availabilityFetches: 0 };
  fakeApi()
    .answer('GET', /^\/api\/vets\/withavailability\//, vetUserIdsSchema, () => {
      calls.availabilityFetches += 1;
      return options.availableVetIds ?? [11];
    })
    .answer('POST', '/api/appointmentsaccesscodes/validate', accessCodeValidationSchema, ({ body }) => ({
      valid: (body as { code: string }).code === 'DEMO-NORMAL',
      included: false,
    }))
    .answer('GET', '/api/appointments/quote', quoteSchema, {
      price_cents: 2125,
      list_price_cents: 2500,
      discount_percent: 15,
      item_name: 'Video consultation',
      included: false,
      currency: 'EUR',
    })
    .answer(
      'POST',
      '/api/appointments',
      appointmentCreatedSchema,
      ({ body }) => {
        const form = body as FormData;
        calls.created.push({
          data: JSON.parse(String(form.get('appointment_data'))) as Record<string, unknown>,
          files: form.getAll('files[]').map((file) => (file as File).name),
        });
        if (options.refuseCreate) return options.refuseCreate;
        return {
          appointment_hash: 'a'.repeat(22),
          payment_hash: 'p'.repeat(22),
          price_cents: 2125,
          item_name: 'Video consultation',
          included: false,
        };
      },
      { status: 201 },
    );
  return calls;
}

async function fillForm() {
  fireEvent.change(screen.getByLabelText(/^Access code/), { target: { value: ' demo-normal ' } });
  expect(await screen.findByText('Valid access code.')).toBeTruthy();
  fireEvent.change(screen.getByLabelText(/^Chief complaint/), { target: { value: 'Itching since Monday' } });
  fireEvent.change(screen.getByLabelText(/^Date/), { target: { value: TYPED_DATE } });
}

/** Dr. Rui, both consents, Schedule: the scheduler opens. */
async function chooseVetAndSchedule() {
  const vetSelect = screen.getByLabelText(/^Vet/) as HTMLSelectElement;
  await waitFor(() => expect(vetSelect.disabled).toBe(false));
  fireEvent.change(vetSelect, { target: { value: '11' } });
  fireEvent.click(screen.getByLabelText(/privacy policy/));
  fireEvent.click(screen.getByLabelText(/terms of telemedicine/));
  fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
  await screen.findByTitle('Scheduling calendar');
}

function postSchedulerMessage(data: unknown) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin: window.location.origin }));
  });
}

describe('BookingForm', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig({ access_codes_enabled: true });
    authStore.setSession('tok-123', { user_id: 5, type: 'customer', name: 'Rita', email: 'rita@x.test', locale: 'en' });
    forgetSchedulerEvents();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
    notifications.cleanQueue();
  });

  it('asks for pets first and keeps the complaint and the schedule button disabled without them', async () => {
    server();
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    expect(screen.getByText('Add your pets before booking a consultation.')).toBeTruthy();
    expect((screen.getByLabelText(/^Chief complaint/) as HTMLTextAreaElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Schedule' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('enables Schedule only with both consents and a valid code; an invalid code says so', async () => {
    server();
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    const scheduleButton = () => screen.getByRole('button', { name: 'Schedule' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText(/^Access code/), { target: { value: 'WRONG' } });
    expect(await screen.findByText('Invalid access code.')).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/privacy policy/));
    fireEvent.click(screen.getByLabelText(/terms of telemedicine/));
    expect(scheduleButton().disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Access code/), { target: { value: 'demo-normal' } });
    expect(await screen.findByText('Valid access code.')).toBeTruthy();
    expect(scheduleButton().disabled).toBe(false);
  });

  it('offers the vets free that date, shows the discounted price, and sends one request per event id', async () => {
    const calls = server();
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    await fillForm();
    const vetSelect = screen.getByLabelText(/^Vet/) as HTMLSelectElement;
    await waitFor(() => expect(vetSelect.disabled).toBe(false));
    expect([...vetSelect.options].map((option) => option.text)).toEqual(['Choose a vet', 'Dr. Rui · Dermatology']);
    fireEvent.change(vetSelect, { target: { value: '11' } });
    expect(await screen.findByText(/Price: €21\.25/)).toBeTruthy();
    fireEvent.click(screen.getByLabelText(/privacy policy/));
    fireEvent.click(screen.getByLabelText(/terms of telemedicine/));
    fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));

    const frame = (await screen.findByTitle('Scheduling calendar')) as HTMLIFrameElement;
    const src = new URL(frame.src, window.location.origin);
    expect(src.pathname).toBe('/embed/scheduler');
    expect(src.searchParams.get('vet_id')).toBe('2');
    expect(src.searchParams.get('date')).toBe(DATE);

    const message = { status: 'success', eventId: 'E'.repeat(22), startTime: `${DATE}T10:00:00.000Z` };
    postSchedulerMessage(message);
    postSchedulerMessage(message);
    await waitFor(() => expect(submit).toHaveBeenCalledTimes(1));
    expect(calls.created).toHaveLength(1);
    expect(calls.created[0]!.data).toMatchObject({
      customer_user_id: 5,
      pet_id: 7,
      vet_user_id: 11,
      description: 'Itching since Monday',
      schedule: `${DATE}T10:00:00.000Z`,
      calendar_event_id: 'E'.repeat(22),
      access_code: 'DEMO-NORMAL',
    });
    const form = submit.mock.contexts[0] as HTMLFormElement;
    expect(form.action).toMatch(/\/api\/payment\/en$/);
    expect(Object.fromEntries(new FormData(form))).toEqual({
      payment_hash: 'p'.repeat(22),
      payment_email: 'rita@x.test',
      customer_user_id: '5',
      auth_token: 'tok-123',
      ga_client_id: '',
      appointment_included: '0',
    });
  });

  it('ignores messages from another origin', async () => {
    const calls = server();
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { status: 'success', eventId: 'X'.repeat(22), startTime: `${DATE}T10:00:00.000Z` },
          origin: 'https://evil.example',
        }),
      );
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls.created).toHaveLength(0);
  });

  it.each([
    [
      'lapsed hold',
      refusal(409, { error: 'hold_expired', message: 'lapsed' }),
      'Your reservation of this time has lapsed. Please choose a time again.',
    ],
    [
      'rate limit, saying when to try again',
      refusal(429, { error: 'too_many_requests', message: 'x' }, { 'retry-after': '300' }),
      'Too many attempts. Try again in 5 minutes.',
    ],
  ])('shows the form again with the reason when the request fails: %s', async (_label, answer, reason) => {
    server({ refuseCreate: answer });
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    await fillForm();
    await chooseVetAndSchedule();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    postSchedulerMessage({ status: 'success', eventId: 'F'.repeat(22), startTime: `${DATE}T10:00:00.000Z` });
    expect(await screen.findByText(reason)).toBeTruthy();
    expect(screen.queryByTitle('Scheduling calendar')).toBeNull();
  });

  describe('the vets offered for the date stay current', () => {
    const vetOptions = () =>
      [...(screen.getByLabelText(/^Vet/) as HTMLSelectElement).options].map((option) => option.text);

    async function showVetsOfDate(availableVetIds: number[], refuseCreate = false) {
      const calls = server({
        availableVetIds,
        refuseCreate: refuseCreate ? refusal(409, { error: 'hold_expired', message: 'lapsed' }) : undefined,
      });
      renderRoutes(
        [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
        '/customer',
      );
      await fillForm();
      await waitFor(() => expect(vetOptions()).toEqual(['Choose a vet', 'Dr. Rui · Dermatology']));
      return calls;
    }

    it('asks again when the person comes back to the page', async () => {
      const available = [11];
      const calls = await showVetsOfDate(available);
      // Meanwhile Dr. Rui's last free time went and Dra. Ana opened hers.
      available.splice(0, 1, 12);
      act(() => {
        window.dispatchEvent(new Event('visibilitychange'));
      });
      await waitFor(() => expect(vetOptions()).toEqual(['Choose a vet', 'Dra. Ana']));
      expect(calls.availabilityFetches).toBe(2);
    });

    it('asks again when the same date is chosen again', async () => {
      const available = [11];
      const calls = await showVetsOfDate(available);
      available.push(12);
      const dateField = screen.getByLabelText(/^Date/);
      fireEvent.change(dateField, { target: { value: '' } });
      fireEvent.change(dateField, { target: { value: TYPED_DATE } });
      await waitFor(() => expect(vetOptions()).toEqual(['Choose a vet', 'Dr. Rui · Dermatology', 'Dra. Ana']));
      expect(calls.availabilityFetches).toBe(2);
    });

    it('asks again when the time could not be booked', async () => {
      const calls = await showVetsOfDate([11], true);
      await chooseVetAndSchedule();
      vi.spyOn(console, 'error').mockImplementation(() => undefined);
      postSchedulerMessage({ status: 'success', eventId: 'G'.repeat(22), startTime: `${DATE}T10:00:00.000Z` });
      await screen.findByText('Your reservation of this time has lapsed. Please choose a time again.');
      await waitFor(() => expect(calls.availabilityFetches).toBe(2));
    });
  });

  describe('back from a canceled payment', () => {
    const START = `${DATE}T10:00:00.000Z`;
    const DRAFT: BookingDraft = {
      pet_id: 7,
      description: 'Itching since Monday',
      date: DATE,
      vet_user_id: 11,
      access_code: 'DEMO-NORMAL',
      start: START,
      file_names: ['ear.png', 'scan.pdf'],
    };

    function renderWithDraft(draft: BookingDraft) {
      renderRoutes(
        [
          {
            path: '/customer',
            element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" draft={draft} />,
          },
        ],
        '/customer',
      );
    }

    it('keeps what was filled in this tab when leaving for payment: names of files, never their bytes', async () => {
      server();
      vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => undefined);
      renderRoutes(
        [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
        '/customer',
      );
      await fillForm();
      const input = document.querySelector('input[type="file"]') as HTMLInputElement;
      fireEvent.change(input, { target: { files: [new File(['secret bytes'], 'ear.png', { type: 'image/png' })] } });
      await chooseVetAndSchedule();
      postSchedulerMessage({ status: 'success', eventId: 'H'.repeat(22), startTime: START });

      await waitFor(() => expect(window.sessionStorage.getItem('vetcall.booking')).not.toBeNull());
      const kept = window.sessionStorage.getItem('vetcall.booking')!;
      expect(JSON.parse(kept)).toEqual({ ...DRAFT, file_names: ['ear.png'] });
      expect(kept).not.toContain('secret bytes');
      expect(kept).not.toContain('tok-123');
    });

    it('shows the form as it was, says which files to attach again, and selects the time again', async () => {
      server();
      renderWithDraft(DRAFT);
      expect(await screen.findByText('Valid access code.')).toBeTruthy();
      expect((screen.getByLabelText(/^Pet/) as HTMLSelectElement).value).toBe('7');
      expect((screen.getByLabelText(/^Chief complaint/) as HTMLTextAreaElement).value).toBe('Itching since Monday');
      expect((screen.getByLabelText(/^Date/) as HTMLInputElement).value).toBe(TYPED_DATE);
      await waitFor(() => expect((screen.getByLabelText(/^Vet/) as HTMLSelectElement).value).toBe('11'));
      expect((screen.getByLabelText(/privacy policy/) as HTMLInputElement).checked).toBe(true);
      expect((screen.getByLabelText(/terms of telemedicine/) as HTMLInputElement).checked).toBe(true);
      expect(screen.getByText('Attach your files again: ear.png, scan.pdf.')).toBeTruthy();

      fireEvent.click(screen.getByRole('button', { name: 'Schedule' }));
      const frame = (await screen.findByTitle('Scheduling calendar')) as HTMLIFrameElement;
      expect(new URL(frame.src, window.location.origin).searchParams.get('start')).toBe(START);
    });

    it('keeps nothing of a date that has left the booking window', async () => {
      server();
      renderWithDraft({ ...DRAFT, date: '2020-01-02', start: '2020-01-02T10:00:00.000Z', file_names: [] });
      expect((screen.getByLabelText(/^Chief complaint/) as HTMLTextAreaElement).value).toBe('Itching since Monday');
      expect((screen.getByLabelText(/^Date/) as HTMLInputElement).value).toBe('');
      expect((screen.getByLabelText(/^Vet/) as HTMLSelectElement).value).toBe('');
      expect(screen.queryByText(/Attach your files again/)).toBeNull();
    });
  });

  it('clears a selection of files over 20 MB with a toast', async () => {
    server();
    renderRoutes(
      [{ path: '/customer', element: <BookingForm pets={[pet]} vets={vets} customerEmail="rita@x.test" /> }],
      '/customer',
    );
    const big = new File(['x'], 'scan.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: 20_971_521 });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('Max files size exceeded.')).toBeTruthy();
  });
});
