import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../../demo-data/factories.ts';
import { users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';

const PASSWORD = 'secret-pass';

type Role = 'vet' | 'otherVet' | 'manager' | 'customer' | 'anonymous';
type Headers = Record<string, string>;

const errorOf = { 400: 'validation_failed', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' } as const;

/**
 * Vet Rui with two appointments (Ana's dog Bobi, then Bruno's cat Tareco), vet Sara with one
 * (Ana's Bobi again), a manager and the customer Ana. Staff and an extra customer are made first so
 * that user ids and vet ids differ.
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
  const bruno = await buildCustomer(t.db, { email: 'bruno@clinic.test', password: PASSWORD, name: 'Bruno Reis' });
  const vet = await buildVet(t.db, {
    email: 'vet.rui@clinic.test',
    password: PASSWORD,
    name: 'Rui',
    specialty: 'Orthopaedics',
    phone: '213456789',
  });
  const otherVet = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const customer = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Ana Silva' });
  const bobi = await buildPet(t.db, customer.customer.id, { name: 'Bobi' });
  const tareco = await buildPet(t.db, bruno.customer.id, { name: 'Tareco', species: 'Cat' });
  const older = await buildAppointment(
    t.db,
    { customerUserId: customer.user.id, petId: bobi.id, vetUserId: vet.user.id },
    {
      schedule: new Date('2026-03-01T10:00:00Z'),
      status: 'TK_Completed',
      statusDate: new Date('2026-03-01T10:45:00Z'),
    },
  );
  const newer = await buildAppointment(
    t.db,
    { customerUserId: bruno.user.id, petId: tareco.id, vetUserId: vet.user.id },
    {
      schedule: new Date('2026-04-15T09:30:00Z'),
      status: 'TK_Confirmed',
      statusDate: new Date('2026-04-10T12:00:00Z'),
    },
  );
  const sarasAppointment = await buildAppointment(t.db, {
    customerUserId: customer.user.id,
    petId: bobi.id,
    vetUserId: otherVet.user.id,
  });
  const headers: Record<Role, Headers> = {
    vet: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    otherVet: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    customer: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, bruno, vet, otherVet, customer, bobi, tareco, older, newer, sarasAppointment, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

describe('GET /api/vets/record/{vet_id}/{language}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  /** Rui's record: his public data and his appointments, newest first, with customer and pet names. */
  const ruiRecord = (w: World) => ({
    vet: { user_id: w.vet.user.id, vet_id: w.vet.vet.id, name: 'Rui', specialty: 'Orthopaedics' },
    appointments: [
      {
        appointment_id: w.newer.id,
        hash: w.newer.hash,
        schedule: '2026-04-15T09:30:00.000Z',
        customer_name: 'Bruno Reis',
        pet_id: w.tareco.id,
        pet_name: 'Tareco',
        appointment_status_key: 'TK_Confirmed',
        status_date: '2026-04-10T12:00:00.000Z',
      },
      {
        appointment_id: w.older.id,
        hash: w.older.hash,
        schedule: '2026-03-01T10:00:00.000Z',
        customer_name: 'Ana Silva',
        pet_id: w.bobi.id,
        pet_name: 'Bobi',
        appointment_status_key: 'TK_Completed',
        status_date: '2026-03-01T10:45:00.000Z',
      },
    ],
    next_cursor: null,
  });

  it.each([
    ['anonymous', 401],
    ['customer', 403],
    ['otherVet', 404],
    ['vet', 200],
    ['manager', 200],
  ] as const)('answers %s with %i', async (role, status) => {
    const response = await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toStrictEqual(ruiRecord(w));
    else expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
  });

  it('never carries the vet’s contact data, the customers’ or any secret', async () => {
    const response = await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers.manager);
    for (const secret of ['@', '213456789', 'password', 'token', 'pin', 'argon2']) {
      expect(response.body).not.toContain(secret);
    }
  });

  it('takes the vet_id (not the user id) and answers 404 for an unknown vet', async () => {
    expect(w.vet.vet.id).not.toBe(w.vet.user.id);
    const byUserId = await get(`/api/vets/record/${w.vet.user.id}/en`, w.headers.manager);
    // The user id of Rui is no vet id of anyone, so it finds nobody.
    expect(byUserId.statusCode).toBe(404);
    expect((await get('/api/vets/record/9999/en', w.headers.manager)).statusCode).toBe(404);
  });

  it('answers the other vet’s own record to that vet, with only their appointments', async () => {
    const response = await get(`/api/vets/record/${w.otherVet.vet.id}/pt`, w.headers.otherVet);
    expect(response.statusCode).toBe(200);
    expect(response.json().vet).toEqual({
      user_id: w.otherVet.user.id,
      vet_id: w.otherVet.vet.id,
      name: 'Sara',
      specialty: 'General practice',
    });
    expect(response.json().appointments.map((entry: { appointment_id: number }) => entry.appointment_id)).toEqual([
      w.sarasAppointment.id,
    ]);
    // And Rui may not read Sara's.
    expect((await get(`/api/vets/record/${w.otherVet.vet.id}/pt`, w.headers.vet)).statusCode).toBe(404);
  });

  it('answers an empty history for a vet without appointments', async () => {
    const fresh = await buildVet(t.db, { email: 'vet.new@clinic.test', name: 'Nova', specialty: 'Cardiology' });
    const response = await get(`/api/vets/record/${fresh.vet.id}/en`, w.headers.manager);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({
      vet: { user_id: fresh.user.id, vet_id: fresh.vet.id, name: 'Nova', specialty: 'Cardiology' },
      appointments: [],
      next_cursor: null,
    });
  });

  it.each(['en', 'pt', 'pt-BR', 'pt_br', 'EN'])('accepts the language %s', async (language) => {
    const response = await get(`/api/vets/record/${w.vet.vet.id}/${language}`, w.headers.vet);
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['/api/vets/record/1/fr', { language: 'invalid_value' }],
    ['/api/vets/record/abc/en', { vet_id: expect.any(String) }],
    ['/api/vets/record/0/en', { vet_id: expect.any(String) }],
  ])('answers 400 for %s', async (url, fields) => {
    const response = await get(url, w.headers.manager);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
  });

  interface RecordPage {
    appointments: { appointment_id: number; schedule: string }[];
    next_cursor: string | null;
  }

  /** `count` more of Rui's appointments (Ana's Bobi), two per hour from 2025-01-01, so schedules tie in pairs. */
  const bulkRecord = (count: number) =>
    t.db.execute(sql`
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status)
      select 'bulk-' || g, ${w.customer.user.id}::integer, ${w.bobi.id}::integer, ${w.vet.user.id}::integer, 'Bulk',
             '2025-01-01T08:00:00Z'::timestamptz + (g / 2) * interval '1 hour', 'TK_Completed'
      from generate_series(1, ${count}::integer) g`);

  it('pages the history newest first with next_cursor, ties by id, without gaps or repeats', async () => {
    await bulkRecord(APPOINTMENT_PAGE_SIZE + 30);
    for (const role of ['vet', 'manager'] as const) {
      const seen: RecordPage['appointments'] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await get(
          `/api/vets/record/${w.vet.vet.id}/en${cursor ? `?cursor=${cursor}` : ''}`,
          w.headers[role],
        );
        expect(response.statusCode, response.body).toBe(200);
        const page = response.json<RecordPage>();
        expect(page.appointments.length).toBeLessThanOrEqual(APPOINTMENT_PAGE_SIZE);
        seen.push(...page.appointments);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(2);
      expect(seen).toHaveLength(APPOINTMENT_PAGE_SIZE + 32);
      expect(seen.slice(0, 2).map((entry) => entry.appointment_id)).toEqual([w.newer.id, w.older.id]);
      expect(new Set(seen.map((entry) => entry.appointment_id)).size).toBe(seen.length);
      const order = seen.map((entry) => [entry.schedule, entry.appointment_id] as const);
      const newestFirst = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
      expect(order).toEqual(newestFirst);
    }
  });

  it('ends with next_cursor null at a full last page', async () => {
    await bulkRecord(APPOINTMENT_PAGE_SIZE - 2);
    const page = (await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers.vet)).json<RecordPage>();
    expect([page.appointments.length, page.next_cursor]).toEqual([APPOINTMENT_PAGE_SIZE, null]);
  });

  it('refuses a forged cursor with 400 cursor invalid_format; others are refused as before', async () => {
    const forged = await get(`/api/vets/record/${w.vet.vet.id}/en?cursor=bm9wZQ`, w.headers.vet);
    expect([forged.statusCode, forged.json().fields]).toEqual([400, { cursor: 'invalid_format' }]);
    await bulkRecord(APPOINTMENT_PAGE_SIZE);
    const first = (await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers.vet)).json<RecordPage>();
    const query = `?cursor=${first.next_cursor}`;
    for (const [role, status] of [
      ['otherVet', 404],
      ['customer', 403],
      ['anonymous', 401],
    ] as const) {
      expect((await get(`/api/vets/record/${w.vet.vet.id}/en${query}`, w.headers[role])).statusCode).toBe(status);
    }
  });

  it('keeps a removed vet’s record, with the names, for managers', async () => {
    const removal = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${w.vet.user.id}`,
      headers: w.headers.manager,
    });
    expect(removal.statusCode).toBe(200);
    expect((await t.db.select().from(users).where(eq(users.id, w.vet.user.id)))[0]!.active).toBe(false);

    const response = await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers.manager);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual(ruiRecord(w));
    // The removed vet's own session ended with the removal.
    expect((await get(`/api/vets/record/${w.vet.vet.id}/en`, w.headers.vet)).statusCode).toBe(401);
  });
});
