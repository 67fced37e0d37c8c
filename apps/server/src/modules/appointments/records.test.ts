import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, type AppointmentStatus } from '@vetcall/shared/appointment-status';
import { fixedClock } from '../../clock.ts';
import { buildAppointment } from '../../demo-data/factories.ts';
import { appointments } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  APPOINTMENT_KEYS_BY_VIEWER,
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  PINS,
  type Role,
  VET_NOTES,
} from '../../../test/appointment-world.ts';

const NOW = '2026-11-20T10:00:00Z';

describe('GET /api/appointments/byid/{id}', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  it('answers the customer their shape: own PIN, no observations, no vet PIN; exactly these keys', async () => {
    const response = await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.customer);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(APPOINTMENT_KEYS_BY_VIEWER.customer);
    expect(body).toEqual({
      viewer: 'customer',
      appointment_id: w.confirmed.id,
      id: w.confirmed.id,
      hash: w.confirmed.hash,
      schedule: '2026-11-20T11:00:00.000Z',
      duration_minutes: 30,
      customer_user_id: w.ana.user.id,
      customer_name: 'Ana Silva',
      customerEmail: 'ana@example.test',
      pet_id: w.bobi.id,
      pet_name: 'Bobi',
      // Insurance is off by default: no policy shown.
      pet_policy: null,
      vet_user_id: w.rui.user.id,
      vet_name: 'Rui Costa',
      vetEmail: 'rui@clinic.test',
      description: 'Limping on the left hind leg since yesterday.',
      appointment_status_key: 'TK_Confirmed',
      // Ana's own language.
      appointment_status: 'Confirmed',
      status_date: '2026-11-18T09:00:00.000Z',
      calendar_event_id: 'evt-ana-rui',
      timezone_diff: 0,
      price: 2125,
      // Less than 24 hours ahead: Ana may still cancel (without refund), no longer move it; the vet closes it.
      lifecycle: {
        canceled_at: null,
        canceled_by_name: null,
        cancel_reason: null,
        refund_status: null,
        refunded_at: null,
        completed_at: null,
        vet_id: w.rui.vet.id,
        profile_id: null,
        can: {
          cancel: { allowed: true, refund: false },
          reschedule: { allowed: false, reason: 'reschedule_closed' },
          complete: { allowed: false, reason: 'forbidden' },
        },
      },
      customer_pin: PINS.customer,
    });
    expect(response.body).not.toContain(VET_NOTES);
    expect(response.body).not.toContain(PINS.vet);
  });

  it('answers the vet their shape: observations and own PIN, never the customer PIN', async () => {
    const response = await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.vet);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(APPOINTMENT_KEYS_BY_VIEWER.vet);
    expect(body).toMatchObject({
      viewer: 'vet',
      vet_observations: VET_NOTES,
      vet_pin: PINS.vet,
      // Rui's language (pt).
      appointment_status: 'Confirmada',
    });
    expect(response.body).not.toContain(PINS.customer);
  });

  it('answers managers observations read-only and no PIN at all', async () => {
    const response = await get(`/api/appointments/byid/${w.confirmed.id}?lang=pt-BR`, w.headers.manager);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(APPOINTMENT_KEYS_BY_VIEWER.manager);
    expect(body).toMatchObject({ viewer: 'manager', vet_observations: VET_NOTES, appointment_status: 'Confirmada' });
    expect(response.body).not.toContain(PINS.customer);
    expect(response.body).not.toContain(PINS.vet);
  });

  it('shows the pet policy only when insurance is in use', async () => {
    await t.close();
    t = await buildTestApp({ clock: fixedClock(NOW), env: { INSURANCE_ENABLED: 'true' } });
    w = await buildAppointmentWorld(t);
    const body = (await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.customer)).json();
    expect(body.pet_policy).toBe('POLICY12345');
  });

  it('gives no PIN before confirmation nor after the appointment left TK_Confirmed', async () => {
    for (const status of ['TK_Requested', 'TK_Completed', 'TK_Canceled'] as const) {
      await t.db.update(appointments).set({ status }).where(eq(appointments.id, w.confirmed.id));
      const customer = (await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.customer)).json();
      const vet = (await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.vet)).json();
      expect([status, customer.customer_pin, vet.vet_pin]).toEqual([status, null, null]);
    }
    const requested = (await get(`/api/appointments/byid/${w.requested.id}`, w.headers.otherVet)).json();
    expect(requested.vet_pin).toBeNull();
  });

  it('localizes the status from ?lang, else from the reader’s locale, for all six statuses', async () => {
    const expected: Record<AppointmentStatus, [string, string]> = {
      TK_PendingPayment: ['Awaiting payment', 'A aguardar pagamento'],
      TK_PaymentFailed: ['Payment failed', 'Pagamento falhado'],
      TK_Requested: ['Requested', 'Pedida'],
      TK_Confirmed: ['Confirmed', 'Confirmada'],
      TK_Canceled: ['Canceled', 'Cancelada'],
      TK_Completed: ['Completed', 'Concluída'],
    };
    for (const status of APPOINTMENT_STATUSES) {
      await t.db.update(appointments).set({ status }).where(eq(appointments.id, w.confirmed.id));
      const english = (await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers.customer)).json();
      const portuguese = (await get(`/api/appointments/byid/${w.confirmed.id}?lang=pt`, w.headers.customer)).json();
      expect([english.appointment_status, portuguese.appointment_status]).toEqual(expected[status]);
    }
  });

  it.each([
    ['otherCustomer', 404],
    ['otherVet', 404],
    ['anonymous', 401],
  ] as const)('answers %s %i for someone else’s appointment, as for one that does not exist', async (role, status) => {
    const theirs = await get(`/api/appointments/byid/${w.confirmed.id}`, w.headers[role]);
    const missing = await get(`/api/appointments/byid/${w.requested.id + 1000}`, w.headers[role]);
    expect([theirs.statusCode, missing.statusCode]).toEqual([status, status]);
    if (status === 404) expect(theirs.json()).toEqual(missing.json());
  });

  it('finds nothing by guessing: every id near the customer’s own is 404 unless it is theirs', async () => {
    const others = [];
    for (let i = 0; i < 5; i++) {
      others.push(
        await buildAppointment(t.db, {
          customerUserId: w.bruno.user.id,
          petId: w.tareco.id,
          vetUserId: w.sara.user.id,
        }),
      );
    }
    for (let id = 1; id <= others.at(-1)!.id + 2; id++) {
      const response = await get(`/api/appointments/byid/${id}`, w.headers.customer);
      expect([id, response.statusCode]).toEqual([id, id === w.confirmed.id ? 200 : 404]);
      const vet = await get(`/api/appointments/byid/${id}`, w.headers.vet);
      expect([id, vet.statusCode]).toEqual([id, id === w.confirmed.id ? 200 : 404]);
    }
  });

  it.each(['abc', '0', '-1', '1e3', '99999999999'])('answers 400 for the id %s', async (id) => {
    const response = await get(`/api/appointments/byid/${id}`, w.headers.manager);
    expect([response.statusCode, response.json().error]).toEqual([400, 'validation_failed']);
  });
});

describe('PUT /api/appointments/{appointment_id}', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const put = (id: number, headers: Headers, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `/api/appointments/${id}`, headers, payload: payload as object });
  const stored = async (id = w.confirmed.id) =>
    (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;

  it('lets the customer change the chief complaint (trimmed) and answers their user_id', async () => {
    const response = await put(w.confirmed.id, w.headers.customer, { description: '  Still limping.  ' });
    expect([response.statusCode, response.json()]).toEqual([200, { user_id: w.ana.user.id }]);
    expect(await stored()).toMatchObject({ description: 'Still limping.', vetObservations: VET_NOTES });
  });

  it('lets the vet change the observations, including clearing them, and nothing else', async () => {
    const response = await put(w.confirmed.id, w.headers.vet, { vet_observations: 'Rest for a week.' });
    expect([response.statusCode, response.json()]).toEqual([200, { user_id: w.rui.user.id }]);
    expect(await stored()).toMatchObject({
      vetObservations: 'Rest for a week.',
      description: 'Limping on the left hind leg since yesterday.',
    });
    expect((await put(w.confirmed.id, w.headers.vet, { vet_observations: '' })).statusCode).toBe(200);
    expect((await stored()).vetObservations).toBe('');
  });

  it.each([
    ['customer', { vet_observations: 'I am the vet now' }, 403],
    ['customer', { description: 'fine', vet_observations: 'x' }, 403],
    ['vet', { description: 'Rewritten by the vet' }, 403],
    ['manager', { description: 'x' }, 403],
    ['manager', { vet_observations: 'x' }, 403],
    ['otherCustomer', { description: 'x' }, 404],
    ['otherVet', { vet_observations: 'x' }, 404],
    ['anonymous', { description: 'x' }, 401],
  ] as [Role, object, number][])('refuses %s sending %j with %i and changes nothing', async (role, body, status) => {
    const before = await stored();
    const response = await put(w.confirmed.id, w.headers[role], body);
    expect(response.statusCode).toBe(status);
    expect(await stored()).toEqual(before);
  });

  it('answers 404 for an appointment that does not exist, as for someone else’s', async () => {
    expect((await put(99_999, w.headers.customer, { description: 'x' })).statusCode).toBe(404);
  });

  it.each([
    [{}, 'description', 'required'],
    [{ description: '   ' }, 'description', 'required'],
    [{ description: 'x'.repeat(4001) }, 'description', 'too_long'],
    [{ vet_observations: 'x'.repeat(20_001) }, 'vet_observations', 'too_long'],
  ])('validates the body %#: 400 with %s %s', async (body, field, code) => {
    const response = await put(w.confirmed.id, w.headers.customer, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toMatchObject({ [field]: code });
  });

  it.each(APPOINTMENT_STATUSES)('in status %s edits only requested, confirmed or completed ones', async (status) => {
    await t.db.update(appointments).set({ status }).where(eq(appointments.id, w.confirmed.id));
    const editable = ['TK_Requested', 'TK_Confirmed', 'TK_Completed'].includes(status);
    const customer = await put(w.confirmed.id, w.headers.customer, { description: 'Changed' });
    const vet = await put(w.confirmed.id, w.headers.vet, { vet_observations: 'Changed' });
    if (editable) {
      expect([customer.statusCode, vet.statusCode]).toEqual([200, 200]);
      expect(await stored()).toMatchObject({ description: 'Changed', vetObservations: 'Changed' });
    } else {
      expect([customer.statusCode, customer.json().error]).toEqual([409, 'error_updating_appointment']);
      expect([vet.statusCode, vet.json().error]).toEqual([409, 'error_updating_appointment']);
      expect(await stored()).toMatchObject({ description: w.confirmed.description, vetObservations: VET_NOTES });
    }
  });

  it('never shows the customer what the vet wrote, before or after either edit', async () => {
    await put(w.confirmed.id, w.headers.vet, { vet_observations: 'Observation B' });
    await put(w.confirmed.id, w.headers.customer, { description: 'Complaint B' });
    const customerView = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/byid/${w.confirmed.id}`,
      headers: w.headers.customer,
    });
    expect(customerView.json().description).toBe('Complaint B');
    expect(customerView.body).not.toContain('Observation B');
    const vetView = await t.app.inject({
      method: 'GET',
      url: `/api/appointments/byid/${w.confirmed.id}`,
      headers: w.headers.vet,
    });
    expect(vetView.json()).toMatchObject({ description: 'Complaint B', vet_observations: 'Observation B' });
  });
});

describe('GET /api/vets/record/{vet_id}/{language}: the vet’s history carries no observations or PINs', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it.each(['vet', 'manager'] as const)('answers %s exactly the record keys', async (role) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/record/${w.rui.vet.id}/en`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['appointments', 'next_cursor', 'vet']);
    expect(body.appointments).toHaveLength(1);
    expect(Object.keys(body.appointments[0]).sort()).toEqual(
      [
        'appointment_id',
        'hash',
        'schedule',
        'customer_name',
        'pet_id',
        'pet_name',
        'appointment_status_key',
        'status_date',
      ].sort(),
    );
    expect(response.body).not.toContain(VET_NOTES);
    expect(response.body).not.toContain(PINS.customer);
    expect(response.body).not.toContain(PINS.vet);
  });
});
