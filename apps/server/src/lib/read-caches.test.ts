import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.ts';
import { appointments, availabilityProfiles, products, sessions, users } from '../db/schema.ts';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import {
  buildAppointment,
  buildCustomer,
  buildHold,
  buildManager,
  buildPet,
  buildVet,
} from '../demo-data/factories.ts';
import { ROOM_CLOSES_AFTER_START_MS } from '@vetcall/shared/schemas/video';
import { nextMinuteEdge } from './cached-json.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { withDatabase } from '../../test/database.ts';
import { weekdays } from '../../test/day-schedules.ts';

const PASSWORD = 'secret-pass';
/** Monday 12 January 2026, 10:10 in Lisbon (UTC+0 in winter). */
const NOW = '2026-01-12T10:10:00Z';

type Headers = Record<string, string>;

/** Ana (customer), Marta (manager), Rui (Lisbon, weekdays 09:00–12:00, 30-minute slots), a product. */
async function buildWorld(t: TestApp) {
  const ana = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Ana' });
  await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta' });
  const rui = await buildVet(t.db, {
    email: 'rui@clinic.test',
    password: PASSWORD,
    name: 'Rui',
    profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays('09:00', '12:00') },
  });
  const [product] = await t.db
    .insert(products)
    .values({ designation: { en: 'Video consultation', pt: 'Consulta', 'pt-BR': 'Consulta' }, priceCents: 3000 })
    .returning();
  return { ana, rui, product: product! };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

const get = async (t: TestApp, url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
const slotStarts = async (t: TestApp, w: World, headers: Headers, date = '2026-01-12') => {
  const response = await get(t, `/api/vets/${w.rui.vet.id}/slots?from=${date}&to=${date}`, headers);
  expect(response.statusCode).toBe(200);
  return response.json<Array<{ local_start: string }>>().map((slot) => slot.local_start);
};
const prices = async (t: TestApp, headers: Headers) =>
  (await get(t, '/api/products/en', headers)).json<Array<{ price: number }>>().map((product) => product.price);

describe('caches of the hot reads follow every change at once', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  let customer: Headers;
  let manager: Headers;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
    customer = (await t.loginAs('ana@clinic.test', PASSWORD)).headers;
    manager = (await t.loginAs('boss@clinic.test', PASSWORD)).headers;
  });
  afterEach(async () => {
    await t.close();
  });

  it('keeps sessions and answers: a repeated read is served from memory', async () => {
    // A booked time, so that the slots' busy ranges are read as rows (a read that finds rows is still a read).
    await buildHold(t.db, {
      vetUserId: w.rui.user.id,
      customerUserId: w.ana.user.id,
      startsAt: '2026-01-12T11:00:00Z',
      durationMinutes: 30,
      expiresAt: '2026-01-20T00:00:00Z',
    });
    await get(t, '/api/me', customer);
    await prices(t, customer);
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:30']);
    expect((await get(t, '/api/vets/withavailability/20260112', customer)).json()).toEqual([w.rui.user.id]);
    expect(t.context.caches.sessions.size).toBeGreaterThan(0);
    // The kept text is what the next request gets, byte for byte, with its JSON type.
    const [first, second] = [await get(t, '/api/products/en', customer), await get(t, '/api/products/en', customer)];
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(t.context.caches.answers.size).toBe(3);
  });

  it('ends a kept session at logout, at deactivation and when its sessions are revoked', async () => {
    const second = (await t.loginAs('ana@clinic.test', PASSWORD)).headers;
    const bossAgain = (await t.loginAs('boss@clinic.test', PASSWORD)).headers;
    for (const headers of [customer, second, manager, bossAgain])
      expect((await get(t, '/api/me', headers)).statusCode).toBe(200);

    await t.app.inject({ method: 'POST', url: '/api/logout', headers: customer });
    expect((await get(t, '/api/me', customer)).statusCode).toBe(401);
    expect((await get(t, '/api/me', second)).statusCode).toBe(200);

    await t.db.update(users).set({ active: false }).where(eq(users.id, w.ana.user.id));
    expect((await get(t, '/api/me', second)).statusCode).toBe(401);

    // A password change revokes every session of its user (auth.service revokeAllSessions).
    await t.db.update(sessions).set({ revokedAt: clock.now() }).where(eq(sessions.tokenHash, sessions.tokenHash));
    expect((await get(t, '/api/me', manager)).statusCode).toBe(401);
    expect((await get(t, '/api/me', bossAgain)).statusCode).toBe(401);
  });

  it('shows a changed name and language on the next /api/me', async () => {
    expect((await get(t, '/api/me', customer)).json()).toMatchObject({ name: 'Ana', locale: 'pt' });
    await t.db.update(users).set({ name: 'Ana Sousa', locale: 'en' }).where(eq(users.id, w.ana.user.id));
    expect((await get(t, '/api/me', customer)).json()).toMatchObject({ name: 'Ana Sousa', locale: 'en' });
  });

  it('shows a price change on the next request, made through the API or in the database', async () => {
    expect(await prices(t, customer)).toEqual([30]);
    const change = await t.app.inject({
      method: 'PUT',
      url: `/api/products/price/${w.product.id}`,
      headers: manager,
      payload: { price: 27.5 },
    });
    expect(change.statusCode).toBe(200);
    expect(await prices(t, customer)).toEqual([27.5]);
    await t.db.update(products).set({ priceCents: 2500 });
    expect(await prices(t, customer)).toEqual([25]);
  });

  it('takes a held slot out at once, gives it back when the hold lapses, and drops a slot once it starts', async () => {
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:00', '11:30']);
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers: customer,
      payload: { vet_id: w.rui.vet.id, start: '2026-01-12T11:00:00Z' },
    });
    expect(hold.statusCode).toBe(201);
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:30']);

    // The hold lapses with no write at all (the release job has not run): the slot is free again.
    const lapse = new Date(hold.json<{ expires_at: string }>().expires_at);
    clock.set(new Date(lapse.getTime() - 1));
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:30']);
    clock.set(lapse);
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:00', '11:30']);

    clock.set('2026-01-12T10:30:00.000Z');
    expect(await slotStarts(t, w, customer)).toEqual(['10:30', '11:00', '11:30']);
    clock.set('2026-01-12T10:30:00.001Z');
    expect(await slotStarts(t, w, customer)).toEqual(['11:00', '11:30']);
  });

  it('follows availability changes and bookings in the slots and in the vets available on a date', async () => {
    const available = async () => (await get(t, '/api/vets/withavailability/20260113', customer)).json<number[]>();
    expect(await available()).toEqual([w.rui.user.id]);
    expect(await slotStarts(t, w, customer, '2026-01-13')).toHaveLength(6);

    await t.db
      .update(availabilityProfiles)
      .set({ daySchedules: weekdays('09:00', '10:00') })
      .where(eq(availabilityProfiles.vetId, w.rui.vet.id));
    expect(await slotStarts(t, w, customer, '2026-01-13')).toEqual(['09:00', '09:30']);

    // A booking of the whole morning leaves Rui nothing that date.
    await buildHold(t.db, {
      vetUserId: w.rui.user.id,
      customerUserId: w.ana.user.id,
      startsAt: '2026-01-13T09:00:00Z',
      durationMinutes: 60,
      expiresAt: '2026-01-20T00:00:00Z',
    });
    expect(await slotStarts(t, w, customer, '2026-01-13')).toEqual([]);
    expect(await available()).toEqual([]);
  });
});

describe('kept appointment lists', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
  });
  afterEach(async () => {
    await t.close();
  });

  it('show a new appointment and a changed status at once, and move an appointment to the past at its minute', async () => {
    const w = await buildWorld(t);
    const customer = (await t.loginAs('ana@clinic.test', PASSWORD)).headers;
    const pet = await buildPet(t.db, w.ana.customer.id);
    const mine = async (when: 'upcoming' | 'past') =>
      (await get(t, `/api/appointments/mine?when=${when}`, customer))
        .json<{ items: Array<{ appointment_status_key: string }> }>()
        .items.map((item) => item.appointment_status_key);
    expect(await mine('upcoming')).toEqual([]);

    const refs = { customerUserId: w.ana.user.id, petId: pet.id, vetUserId: w.rui.user.id };
    const appointment = await buildAppointment(t.db, refs, { schedule: new Date('2026-01-12T10:30:00Z') });
    expect(await mine('upcoming')).toEqual(['TK_Confirmed']);
    await t.db.update(appointments).set({ status: 'TK_Canceled' }).where(eq(appointments.id, appointment.id));
    expect(await mine('upcoming')).toEqual(['TK_Canceled']);

    // Past once its room has closed: the same answer up to that minute, the other one from it.
    const closes = new Date('2026-01-12T10:30:00Z').getTime() + ROOM_CLOSES_AFTER_START_MS;
    clock.set(new Date(closes - 30_000));
    const before = [await mine('upcoming'), await mine('past')];
    clock.set(new Date(closes + 1));
    const after = [await mine('upcoming'), await mine('past')];
    expect(before).toEqual([['TK_Canceled'], []]);
    expect(after).toEqual([[], ['TK_Canceled']]);
  });
});

describe('nextMinuteEdge', () => {
  it('is the next whole minute, or 1 ms on when the answer is built on one', () => {
    expect(new Date(nextMinuteEdge(new Date('2026-01-12T10:29:30.500Z'))).toISOString()).toBe(
      '2026-01-12T10:30:00.000Z',
    );
    expect(new Date(nextMinuteEdge(new Date('2026-01-12T10:30:00.000Z'))).toISOString()).toBe(
      '2026-01-12T10:30:00.001Z',
    );
    expect(new Date(nextMinuteEdge(new Date('2026-01-12T10:30:00.001Z'))).toISOString()).toBe(
      '2026-01-12T10:31:00.000Z',
    );
  });
});

/** Polls `read` until it gives `expected` (another instance hears of a change moments after its commit). */
async function eventually<T>(read: () => Promise<T>, expected: T, withinMs = 3000): Promise<void> {
  const until = Date.now() + withinMs;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    last = await read();
  }
  expect(last).toEqual(expected);
}

describe.runIf(process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  const template = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://localhost/none');
  const name = `${template.pathname.slice(1)}_${randomBytes(6).toString('hex')}`;
  let first: DatabaseHandle;
  let second: DatabaseHandle;
  let a: TestApp;
  let b: TestApp;
  beforeEach(async () => {
    const admin = new pg.Client({ connectionString: withDatabase(template, 'postgres') });
    await admin.connect();
    await admin.query(`create database "${name}" template "${template.pathname.slice(1)}"`);
    await admin.end();
    first = await openDatabase({ url: withDatabase(template, name) });
    second = await openDatabase({ url: withDatabase(template, name) });
    const clock = fixedClock(NOW);
    a = await buildTestApp({ clock, database: first });
    b = await buildTestApp({ clock, database: second });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
    await first.close();
    await second.close();
    const admin = new pg.Client({ connectionString: withDatabase(template, 'postgres') });
    await admin.connect();
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it('hears a logout, a price change and a hold made through the other instance', async () => {
    const w = await buildWorld(a);
    const customer = (await a.loginAs('ana@clinic.test', PASSWORD)).headers;
    const manager = (await b.loginAs('boss@clinic.test', PASSWORD)).headers;
    await eventually(async () => first.dataVersion.complete, true);
    expect((await get(a, '/api/me', customer)).statusCode).toBe(200);
    expect(await prices(a, customer)).toEqual([30]);
    expect(await slotStarts(a, w, customer)).toEqual(['10:30', '11:00', '11:30']);

    await b.app.inject({
      method: 'PUT',
      url: `/api/products/price/${w.product.id}`,
      headers: manager,
      payload: { price: 12 },
    });
    await eventually(() => prices(a, customer), [12]);

    const hold = await b.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers: customer,
      payload: { vet_id: w.rui.vet.id, start: '2026-01-12T10:30:00Z' },
    });
    expect(hold.statusCode).toBe(201);
    await eventually(() => slotStarts(a, w, customer), ['11:00', '11:30']);

    await b.app.inject({ method: 'POST', url: '/api/logout', headers: customer });
    await eventually(async () => (await get(a, '/api/me', customer)).statusCode, 401);
  });

  it('keeps nothing while it cannot hear the other instances, and starts again once it hears them', async () => {
    await buildWorld(a);
    const customer = (await a.loginAs('ana@clinic.test', PASSWORD)).headers;
    await eventually(async () => first.dataVersion.complete, true);
    // Ends the listening connection of the first instance, as a restart of the server or a network cut would.
    await second.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    await eventually(async () => first.dataVersion.complete && second.dataVersion.complete, false, 2000);
    await eventually(async () => first.dataVersion.complete, true, 5000);
    expect((await get(a, '/api/me', customer)).statusCode).toBe(200);
    await second.db.update(users).set({ name: 'Ana Sousa' }).where(eq(users.email, 'ana@clinic.test'));
    await eventually(async () => (await get(a, '/api/me', customer)).json<{ name: string }>().name, 'Ana Sousa');
  });
});
