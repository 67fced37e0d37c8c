import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_PAGE_SIZE, type MyAppointmentPage } from '@vetcall/shared/schemas/appointment';
import { fixedClock } from '../../clock.ts';
import { buildAppointment } from '../../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  PINS,
  VET_NOTES,
} from '../../../test/appointment-world.ts';

/** Wednesday 18 November 2026, 12:00 UTC: Ana's confirmed appointment is on Friday 20th at 11:00 UTC. */
const NOW = '2026-11-18T12:00:00Z';
const HOUR_MS = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(new Date(NOW).getTime() + offsetMs);

const ROW_KEYS = [
  'appointment_id',
  'appointment_status',
  'appointment_status_key',
  'cancel',
  'pet_id',
  'pet_name',
  'price',
  'reschedule',
  'schedule',
  'vet_name',
  'vet_user_id',
];

describe('GET /api/appointments/mine', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (query: string, headers: Headers = w.headers.customer) =>
    t.app.inject({ method: 'GET', url: `/api/appointments/mine${query}`, headers });
  const list = async (query: string, headers?: Headers) => {
    const response = await get(query, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MyAppointmentPage>();
  };
  const anas = (overrides: Parameters<typeof buildAppointment>[2]) =>
    buildAppointment(t.db, { customerUserId: w.ana.user.id, petId: w.bobi.id, vetUserId: w.rui.user.id }, overrides);

  it('splits the customer’s own appointments at the room’s close, each with what cancelling would do now', async () => {
    const inRoom = await anas({ schedule: at(-59 * 60_000), status: 'TK_Confirmed' });
    const roomClosed = await anas({ schedule: at(-HOUR_MS), status: 'TK_Confirmed' });
    const soon = await anas({ schedule: at(2 * HOUR_MS), status: 'TK_Requested', priceCents: 2500 });
    const unpaid = await anas({ schedule: at(3 * HOUR_MS), status: 'TK_PendingPayment' });
    const completed = await anas({ schedule: new Date('2026-11-02T10:00:00Z'), status: 'TK_Completed' });

    const upcoming = await list('?when=upcoming');
    expect(upcoming.next_cursor).toBeNull();
    expect(upcoming.items.map((item) => [item.appointment_id, item.cancel])).toEqual([
      [inRoom.id, { allowed: false, reason: 'cancellation_closed' }],
      [soon.id, { allowed: true, refund: false }],
      [unpaid.id, { allowed: true, refund: false }],
      [w.confirmed.id, { allowed: true, refund: true }],
    ]);
    expect(upcoming.items.at(-1)).toEqual({
      appointment_id: w.confirmed.id,
      schedule: '2026-11-20T11:00:00.000Z',
      pet_id: w.bobi.id,
      pet_name: 'Bobi',
      vet_user_id: w.rui.user.id,
      vet_name: 'Rui Costa',
      appointment_status_key: 'TK_Confirmed',
      appointment_status: 'Confirmed',
      price: 2125,
      cancel: { allowed: true, refund: true },
      reschedule: { allowed: true },
    });

    const past = await list('?when=past');
    expect(past.items.map((item) => [item.appointment_id, item.cancel])).toEqual([
      [roomClosed.id, { allowed: false, reason: 'cancellation_closed' }],
      [completed.id, { allowed: false, reason: 'invalid_transition' }],
    ]);
    for (const item of [...upcoming.items, ...past.items]) expect(Object.keys(item).sort()).toEqual(ROW_KEYS);
    const body = JSON.stringify([upcoming, past]);
    for (const secret of [VET_NOTES, PINS.customer, PINS.vet, 'Limping', 'Tareco']) expect(body).not.toContain(secret);
  });

  it('shows each customer only their own', async () => {
    const bruno = await list('?when=upcoming', w.headers.otherCustomer);
    expect(bruno.items.map((item) => [item.appointment_id, item.pet_name, item.vet_name])).toEqual([
      [w.requested.id, 'Tareco', 'Sara Lima'],
    ]);
    expect((await list('?when=past', w.headers.otherCustomer)).items).toEqual([]);
  });

  it('localizes statuses in ?lang, else in the customer’s language (Bruno’s is pt)', async () => {
    expect((await list('?when=upcoming&lang=pt-BR')).items.map((i) => i.appointment_status)).toEqual(['Confirmada']);
    expect((await list('?when=upcoming', w.headers.otherCustomer)).items[0]!.appointment_status).toBe('Pedida');
  });

  it('walks keyset pages with the cursor: upcoming soonest first, past latest first, ties by id', async () => {
    // 250 upcoming and 250 past, two per half hour, around NOW.
    await t.db.execute(sql`
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status, price_cents)
      select 'bulk-' || g, ${w.ana.user.id}::integer, ${w.bobi.id}::integer, ${w.rui.user.id}::integer, 'Bulk',
             ${NOW}::timestamptz + (case when g <= 250 then 1 else -1 end) * (2 + (g % 250) / 2) * interval '30 minutes',
             'TK_Confirmed', 2500
      from generate_series(1, 500) g`);

    for (const [when, direction, total] of [
      ['upcoming', 1, 251],
      ['past', -1, 250],
    ] as const) {
      const seen: MyAppointmentPage['items'] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await list(`?when=${when}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.items.length).toBeLessThanOrEqual(APPOINTMENT_PAGE_SIZE);
        seen.push(...page.items);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor);
      expect([when, pages, seen.length]).toEqual([when, 2, total]);
      expect(new Set(seen.map((item) => item.appointment_id)).size).toBe(total);
      const order = seen.map((item) => [item.schedule, item.appointment_id] as const);
      const sorted = [...order].sort((a, b) => direction * (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
      expect(order).toEqual(sorted);
    }
  });

  it.each([
    ['vet', 403],
    ['manager', 403],
    ['anonymous', 401],
  ] as const)('refuses %s with %i', async (role, status) => {
    expect((await get('?when=upcoming', w.headers[role])).statusCode).toBe(status);
  });

  it.each([
    ['', { when: 'invalid_value' }],
    ['?when=soon', { when: 'invalid_value' }],
    ['?when=upcoming&lang=xx', { lang: 'invalid_value' }],
    ['?when=upcoming&cursor=bm9wZQ', { cursor: 'invalid_format' }],
    [`?when=past&cursor=${'a'.repeat(201)}`, { cursor: 'too_long' }],
  ])('refuses the query %s with 400 and field codes', async (query, fields) => {
    const response = await get(query);
    expect([response.statusCode, response.json().error, response.json().fields]).toEqual([
      400,
      'validation_failed',
      fields,
    ]);
  });
});
