import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../../demo-data/factories.ts';
import { appointments, pets } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';

const PASSWORD = 'secret-pass';

type Role = 'owner' | 'otherCustomer' | 'vetWithAppointment' | 'vetWithout' | 'manager' | 'anonymous';
type Headers = Record<string, string>;

/** Fails if a secret-looking key appears anywhere in an answer. */
function expectNoSecrets(body: unknown) {
  const keys: string[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        keys.push(key);
        walk(inner);
      }
    }
  };
  walk(body);
  // join_pin is the reader's own PIN of a history row whose join link is open (tested on its own below).
  expect(keys.filter((key) => /password|token|pin/i.test(key) && key !== 'join_pin')).toEqual([]);
  expect(JSON.stringify(body)).not.toMatch(/\$argon2/);
}

const errorOf = { 400: 'validation_failed', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' } as const;

/**
 * The owner Ana (two pets: Bobi, a Portuguese Water Dog with an appointment with vet Rui, and Mia,
 * a cat without appointments), another customer Bruno (pet Tareco, seen by vet Sara), and a manager.
 * Staff are made first so that user ids, customer ids and pet ids all differ.
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
  const vetWithAppointment = await buildVet(t.db, { email: 'vet.rui@clinic.test', password: PASSWORD, name: 'Rui' });
  const vetWithout = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const otherCustomer = await buildCustomer(t.db, { email: 'bruno@clinic.test', password: PASSWORD });
  const owner = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, locale: 'pt' });
  const otherPet = await buildPet(t.db, otherCustomer.customer.id, { name: 'Tareco', species: 'Cat' });
  const historyPet = await buildPet(t.db, owner.customer.id, {
    name: 'Bobi',
    species: 'Dog',
    breedId: 1003,
    breed: 'Portuguese Water Dog',
    gender: 'M',
    birth: '2020-05-17',
    fertileStatus: 'neutered',
    weight: 21.4,
  });
  const plainPet = await buildPet(t.db, owner.customer.id, {
    name: 'Mia',
    species: 'Cat',
    breed: '',
    gender: 'F',
    birth: '2022-02-10',
    weight: 4.2,
  });
  const appointment = await buildAppointment(
    t.db,
    { customerUserId: owner.user.id, petId: historyPet.id, vetUserId: vetWithAppointment.user.id },
    { schedule: new Date('2026-03-01T10:00:00Z'), status: 'TK_Completed' },
  );
  await buildAppointment(t.db, {
    customerUserId: otherCustomer.user.id,
    petId: otherPet.id,
    vetUserId: vetWithout.user.id,
  });

  const headers: Record<Role, Headers> = {
    owner: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    otherCustomer: (await t.loginAs('bruno@clinic.test', PASSWORD)).headers,
    vetWithAppointment: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    vetWithout: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return {
    manager,
    vetWithAppointment,
    vetWithout,
    owner,
    otherCustomer,
    otherPet,
    historyPet,
    plainPet,
    appointment,
    headers,
  };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

const newPet = {
  name: 'Pipoca',
  species: 'Dog',
  breed_id: null,
  breed: 'Rafeiro',
  gender: 'F',
  birth: '2023-04-01',
  fertile_status: 'intact',
  weight: 10.3,
  policy: null,
};

const storedPet = async (t: TestApp, id: number) => (await t.db.select().from(pets).where(eq(pets.id, id)))[0];

/** What Ana's pets look like in answers, in Portuguese (her locale). */
function bobiAnswer(w: World) {
  return {
    pet_id: w.historyPet.id,
    user_id: w.owner.user.id,
    customer_id: w.owner.customer.id,
    name: 'Bobi',
    species: 'Dog',
    breed_id: 1003,
    breed: 'Cão de Água Português',
    gender: 'M',
    birth: '2020-05-17',
    fertile_status: 'neutered',
    weight: 21.4,
    policy: null,
    archived: false,
  };
}

describe('pets: reads (GET /api/pets/customer/{customer_id}, /byid/{pet_id}, /record/{pet_id}/{language})', () => {
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

  it('lists the owner’s pets by customer_id, in id order, with breed names in the user’s locale', async () => {
    expect(w.owner.customer.id).not.toBe(w.owner.user.id);
    const response = await get(`/api/pets/customer/${w.owner.customer.id}`, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      bobiAnswer(w),
      {
        pet_id: w.plainPet.id,
        user_id: w.owner.user.id,
        customer_id: w.owner.customer.id,
        name: 'Mia',
        species: 'Cat',
        breed_id: null,
        breed: '',
        gender: 'F',
        birth: '2022-02-10',
        fertile_status: 'intact',
        weight: 4.2,
        policy: null,
        archived: false,
      },
    ]);
    expectNoSecrets(response.json());
  });

  it.each([
    ['en', 'Portuguese Water Dog'],
    ['pt', 'Cão de Água Português'],
    ['pt-BR', "Cão d'Água Português"],
    ['pt_br', "Cão d'Água Português"],
  ])('answers breed names in ?lang=%s', async (lang, name) => {
    for (const url of [
      `/api/pets/customer/${w.owner.customer.id}?lang=${lang}`,
      `/api/pets/byid/${w.historyPet.id}?lang=${lang}`,
    ]) {
      const response = await get(url, w.headers.manager);
      expect(response.statusCode, url).toBe(200);
      const body = response.json();
      const bobi = Array.isArray(body) ? body[0] : body;
      expect(bobi.breed, url).toBe(name);
      expect(bobi.breed_id).toBe(1003);
    }
    const record = await get(`/api/pets/record/${w.historyPet.id}/${lang}`, w.headers.manager);
    expect(record.statusCode).toBe(200);
    expect(record.json().pet.breed).toBe(name);
  });

  it('answers 400 lang invalid_value for an unsupported ?lang=', async () => {
    const response = await get(`/api/pets/byid/${w.historyPet.id}?lang=fr`, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { lang: 'invalid_value' },
    });
  });

  const readRoles = [
    ['owner', 200],
    ['manager', 200],
    ['vetWithAppointment', 200],
    ['vetWithout', 404],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const;

  it.each(readRoles)('GET /api/pets/customer/{customer_id} answers %s with %i', async (role, status) => {
    const response = await get(`/api/pets/customer/${w.owner.customer.id}`, w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 200)
      expect(response.json().map((pet: { pet_id: number }) => pet.pet_id)).toEqual([w.historyPet.id, w.plainPet.id]);
    else expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
  });

  it.each(readRoles)('GET /api/pets/byid/{pet_id} answers %s with %i', async (role, status) => {
    const response = await get(`/api/pets/byid/${w.historyPet.id}`, w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      expect(response.json()).toMatchObject({ ...bobiAnswer(w), breed: expect.any(String) });
      expectNoSecrets(response.json());
    } else expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
  });

  it.each(readRoles)('GET /api/pets/record/{pet_id}/{language} answers %s with %i', async (role, status) => {
    const response = await get(`/api/pets/record/${w.historyPet.id}/en`, w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      expect(response.json().pet.pet_id).toBe(w.historyPet.id);
      expectNoSecrets(response.json());
    } else expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
  });

  it('answers [] for a customer without pets', async () => {
    const empty = await buildCustomer(t.db, { email: 'empty@clinic.test', password: PASSWORD });
    const { headers } = await t.loginAs('empty@clinic.test', PASSWORD);
    for (const asker of [headers, w.headers.manager]) {
      const response = await get(`/api/pets/customer/${empty.customer.id}`, asker);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
    }
  });

  it('a vet reads every pet of a customer they have seen, not only the pet of the appointment', async () => {
    expect((await get(`/api/pets/byid/${w.plainPet.id}`, w.headers.vetWithAppointment)).statusCode).toBe(200);
    expect((await get(`/api/pets/record/${w.plainPet.id}/pt`, w.headers.vetWithAppointment)).statusCode).toBe(200);
  });

  it('each role against Bruno’s pet and list: only Bruno, the manager and Bruno’s vet read them', async () => {
    const expected: Record<Role, number> = {
      owner: 404,
      otherCustomer: 200,
      vetWithAppointment: 404,
      vetWithout: 200,
      manager: 200,
      anonymous: 401,
    };
    for (const [role, status] of Object.entries(expected) as [Role, number][]) {
      for (const url of [
        `/api/pets/byid/${w.otherPet.id}`,
        `/api/pets/record/${w.otherPet.id}/pt`,
        `/api/pets/customer/${w.otherCustomer.customer.id}`,
      ]) {
        expect((await get(url, w.headers[role])).statusCode, `${role} ${url}`).toBe(status);
      }
    }
  });

  it('answers the same 404 for a pet or customer that does not exist (existence does not leak)', async () => {
    const missingPet = await get('/api/pets/byid/999999', w.headers.owner);
    const hiddenPet = await get(`/api/pets/byid/${w.otherPet.id}`, w.headers.owner);
    expect(missingPet.statusCode).toBe(404);
    expect(hiddenPet.json()).toEqual(missingPet.json());
    expect((await get('/api/pets/record/999999/pt', w.headers.manager)).statusCode).toBe(404);
    const missingCustomer = await get('/api/pets/customer/999999', w.headers.manager);
    expect(missingCustomer.statusCode).toBe(404);
    expect((await get('/api/pets/customer/999999', w.headers.owner)).json()).toEqual(missingCustomer.json());
  });

  it.each([
    ['/api/pets/byid/abc', 'pet_id'],
    ['/api/pets/byid/0', 'pet_id'],
    ['/api/pets/customer/abc', 'customer_id'],
    ['/api/pets/customer/-1', 'customer_id'],
    ['/api/pets/record/abc/pt', 'pet_id'],
  ])('answers 400 for the bad parameter of %s', async (url, field) => {
    const response = await get(url, w.headers.manager);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty(field);
  });

  it('answers 400 language invalid_value for a record in an unsupported language', async () => {
    const response = await get(`/api/pets/record/${w.historyPet.id}/fr`, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ language: 'invalid_value' });
  });

  it('the record carries the pet, its age and its appointment history, newest first, for this pet only', async () => {
    const later = await buildAppointment(
      t.db,
      { customerUserId: w.owner.user.id, petId: w.historyPet.id, vetUserId: w.vetWithout.user.id },
      {
        schedule: new Date('2026-04-02T15:30:00Z'),
        status: 'TK_Confirmed',
        statusDate: new Date('2026-03-20T08:00:00Z'),
      },
    );
    await buildAppointment(t.db, {
      customerUserId: w.owner.user.id,
      petId: w.plainPet.id,
      vetUserId: w.vetWithout.user.id,
    });
    const response = await get(`/api/pets/record/${w.historyPet.id}/en`, w.headers.owner);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['age', 'history', 'history_next_cursor', 'pet']);
    expect(body.pet).toEqual({ ...bobiAnswer(w), breed: 'Portuguese Water Dog' });
    expect(body.age).toEqual({ years: expect.any(Number), months: expect.any(Number) });
    expect(body.history).toEqual([
      {
        appointment_id: later.id,
        hash: later.hash,
        schedule: '2026-04-02T15:30:00Z',
        vet_user_id: w.vetWithout.user.id,
        vet_name: 'Sara',
        appointment_status_key: 'TK_Confirmed',
        status_date: '2026-03-20T08:00:00Z',
        // Confirmed, but without PINs in this world.
        join_pin: null,
      },
      {
        appointment_id: w.appointment.id,
        hash: w.appointment.hash,
        schedule: '2026-03-01T10:00:00Z',
        vet_user_id: w.vetWithAppointment.user.id,
        vet_name: 'Rui',
        appointment_status_key: 'TK_Completed',
        status_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
        join_pin: null,
      },
    ]);
    // The history shows no vet observations, PINs or chief complaint.
    expect(JSON.stringify(body.history)).not.toContain('Limping');
    expectNoSecrets(body);

    const empty = await get(`/api/pets/record/${w.otherPet.id}/en`, w.headers.otherCustomer);
    expect(empty.json().history).toHaveLength(1);
  });

  /** `count` more appointments of Bobi with Rui, two per hour from 2025-01-01, so that schedules tie in pairs. */
  const bulkHistory = (count: number) =>
    t.db.execute(sql`
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status)
      select 'bulk-' || g, ${w.owner.user.id}::integer, ${w.historyPet.id}::integer,
             ${w.vetWithAppointment.user.id}::integer, 'Bulk',
             '2025-01-01T08:00:00Z'::timestamptz + (g / 2) * interval '1 hour', 'TK_Completed'
      from generate_series(1, ${count}::integer) g`);

  interface HistoryPage {
    history: { appointment_id: number; schedule: string }[];
    history_next_cursor: string | null;
  }

  it('pages the history newest first with history_next_cursor, ties by id, without gaps or repeats', async () => {
    await bulkHistory(APPOINTMENT_PAGE_SIZE + 50);
    for (const role of ['owner', 'vetWithAppointment', 'manager'] as const) {
      const seen: HistoryPage['history'] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response = await get(
          `/api/pets/record/${w.historyPet.id}/en${cursor ? `?cursor=${cursor}` : ''}`,
          w.headers[role],
        );
        expect(response.statusCode, response.body).toBe(200);
        const page = response.json<HistoryPage>();
        expect(page.history.length).toBeLessThanOrEqual(APPOINTMENT_PAGE_SIZE);
        seen.push(...page.history);
        cursor = page.history_next_cursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(2);
      // The bulk rows and the world's appointment of 2026-03-01 (the newest).
      expect(seen).toHaveLength(APPOINTMENT_PAGE_SIZE + 51);
      expect(seen[0]!.appointment_id).toBe(w.appointment.id);
      expect(new Set(seen.map((entry) => entry.appointment_id)).size).toBe(seen.length);
      const order = seen.map((entry) => [entry.schedule, entry.appointment_id] as const);
      const newestFirst = [...order].sort((a, b) => (a[0] === b[0] ? b[1] - a[1] : a[0] < b[0] ? 1 : -1));
      expect(order).toEqual(newestFirst);
    }
  });

  it('ends with history_next_cursor null at a full last page', async () => {
    await bulkHistory(APPOINTMENT_PAGE_SIZE - 1);
    const page = (await get(`/api/pets/record/${w.historyPet.id}/en`, w.headers.owner)).json<HistoryPage>();
    expect([page.history.length, page.history_next_cursor]).toEqual([APPOINTMENT_PAGE_SIZE, null]);
  });

  it('refuses a forged cursor with 400 cursor invalid_format, and still hides the pet from others', async () => {
    const forged = await get(`/api/pets/record/${w.historyPet.id}/en?cursor=bm9wZQ`, w.headers.owner);
    expect([forged.statusCode, forged.json().fields]).toEqual([400, { cursor: 'invalid_format' }]);
    await bulkHistory(APPOINTMENT_PAGE_SIZE);
    const first = (await get(`/api/pets/record/${w.historyPet.id}/en`, w.headers.owner)).json<HistoryPage>();
    expect(first.history_next_cursor).toEqual(expect.any(String));
    const query = `?cursor=${first.history_next_cursor}`;
    for (const [role, status] of [
      ['otherCustomer', 404],
      ['vetWithout', 404],
      ['anonymous', 401],
    ] as const) {
      expect((await get(`/api/pets/record/${w.historyPet.id}/en${query}`, w.headers[role])).statusCode).toBe(status);
    }
  });
});

describe('GET /api/pets/record: age on the server’s date', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock('2026-05-16T12:00:00Z');
    t = await buildTestApp({ clock });
  });
  afterEach(async () => {
    await t.close();
  });

  it('computes whole years and months from birth', async () => {
    const owner = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD });
    const pet = await buildPet(t.db, owner.customer.id, { birth: '2020-05-17' });
    const leap = await buildPet(t.db, owner.customer.id, { birth: '2024-02-29' });
    const { headers } = await t.loginAs('ana@clinic.test', PASSWORD);
    const record = async (id: number) =>
      (await t.app.inject({ method: 'GET', url: `/api/pets/record/${id}/pt`, headers })).json().age;

    expect(await record(pet.id)).toEqual({ years: 5, months: 11 });
    expect(await record(leap.id)).toEqual({ years: 2, months: 2 });
    clock.set('2026-05-17T00:00:00Z');
    expect(await record(pet.id)).toEqual({ years: 6, months: 0 });
  });
});

describe('pets: a birth no later than today in the clinic’s time zone (CLINIC_TIME_ZONE)', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** 23:30 UTC on 24 November: still the 24th in Lisbon (UTC+0 in winter), already the 25th in UTC+14. */
  const LATE_ON_THE_24TH = '2026-11-24T23:30:00Z';

  async function ownerOfOnePet(env?: Record<string, string>) {
    t = await buildTestApp({ clock: fixedClock(LATE_ON_THE_24TH), ...(env ? { env } : {}) });
    const app = t;
    const owner = await buildCustomer(app.db, { email: 'ana@clinic.test', password: PASSWORD });
    const pet = await buildPet(app.db, owner.customer.id, { name: 'Mia' });
    const { headers } = await app.loginAs('ana@clinic.test', PASSWORD);
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      app.app.inject({ method, url, payload, headers });
    /** The answer of each route that takes a pet: add, change, and the Save of the customer's edits. */
    const answers = async (birth: string) => {
      const input = { ...newPet, birth };
      const responses = [
        await send('POST', '/api/pets', input),
        await send('PUT', `/api/pets/${pet.id}`, input),
        await send('POST', `/api/pets/customer/${owner.customer.id}/changes`, {
          create: [input],
          update: [{ ...input, pet_id: pet.id }],
        }),
      ];
      return responses.map((response) => ({ status: response.statusCode, fields: response.json().fields }));
    };
    return { answers };
  }

  it('in Lisbon (the default zone), refuses the 25th as too_big and takes the 24th', async () => {
    const { answers } = await ownerOfOnePet();
    const tooBig = { status: 400, fields: { birth: 'too_big' } };
    expect(await answers('2026-11-25')).toEqual([
      tooBig,
      tooBig,
      { status: 400, fields: { 'create.0.birth': 'too_big', 'update.0.birth': 'too_big' } },
    ]);
    expect((await answers('2026-11-24')).map((answer) => answer.status)).toEqual([201, 200, 200]);
    expect(t!.config.clinicTimeZone).toBe('Europe/Lisbon');
  });

  it('follows the configured zone: in Auckland (UTC+13) it is already the 25th, not yet the 26th', async () => {
    const { answers } = await ownerOfOnePet({ CLINIC_TIME_ZONE: 'Pacific/Auckland' });
    expect((await answers('2026-11-25')).map((answer) => answer.status)).toEqual([201, 200, 200]);
    expect((await answers('2026-11-26')).map((answer) => answer.status)).toEqual([400, 400, 400]);
  });
});

describe('POST /api/pets', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const create = (payload: unknown, headers: Headers, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/pets${query}`, payload: payload as object, headers });

  it('adds a pet to the owner’s record and answers 201 with it', async () => {
    const response = await create(newPet, w.headers.owner);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      pet_id: expect.any(Number),
      user_id: w.owner.user.id,
      customer_id: w.owner.customer.id,
      name: 'Pipoca',
      species: 'Dog',
      breed_id: null,
      breed: 'Rafeiro',
      gender: 'F',
      birth: '2023-04-01',
      fertile_status: 'intact',
      weight: 10.3,
      policy: null,
      archived: false,
    });
    expectNoSecrets(body);
    expect(await storedPet(t, body.pet_id)).toMatchObject({ customerId: w.owner.customer.id, weight: 10.3 });
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/pets/customer/${w.owner.customer.id}`,
      headers: w.headers.owner,
    });
    expect(list.json().map((pet: { pet_id: number }) => pet.pet_id)).toContain(body.pet_id);
  });

  it.each([
    ['owner', 201],
    ['otherCustomer', 201],
    ['manager', 403],
    ['vetWithAppointment', 403],
    ['vetWithout', 403],
    ['anonymous', 401],
  ] as const)('answers %s with %i (a customer always adds to their own record)', async (role, status) => {
    const before = await t.db.select().from(pets);
    const response = await create(newPet, w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 201) {
      const owner = role === 'owner' ? w.owner : w.otherCustomer;
      expect(response.json()).toMatchObject({ customer_id: owner.customer.id, user_id: owner.user.id });
    } else {
      expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
      expect(await t.db.select().from(pets)).toHaveLength(before.length);
    }
  });

  it('ignores a customer_id or user_id in the body (no creating pets for someone else)', async () => {
    const response = await create(
      { ...newPet, customer_id: w.otherCustomer.customer.id, user_id: w.otherCustomer.user.id },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().customer_id).toBe(w.owner.customer.id);
  });

  describe('breeds', () => {
    it.each([
      ['Dog', 'Dog', 1003, 'Cão de Água Português', 'Portuguese Water Dog'],
      ['Cão', 'Dog', 1003, 'Cão de Água Português', 'Portuguese Water Dog'],
      ['dog', 'Dog', 1001, 'Rafeiro / Sem raça definida', 'Mixed breed'],
      ['Cat', 'Cat', 2002, 'Europeu Comum', 'European Shorthair'],
      ['Gato', 'Cat', 2002, 'Europeu Comum', 'European Shorthair'],
    ])(
      'stores species %s as %s with catalogue breed %i and shows its name',
      async (typed, species, breed_id, pt, en) => {
        const response = await create({ ...newPet, species: typed, breed_id, breed: 'ignored' }, w.headers.owner);
        expect(response.statusCode).toBe(201);
        const body = response.json();
        expect(body).toMatchObject({ species, breed_id, breed: pt });
        // Stored with the canonical species and the English name beside the id.
        expect(await storedPet(t, body.pet_id)).toMatchObject({ species, breedId: breed_id, breed: en });
        const english = await t.app.inject({
          method: 'GET',
          url: `/api/pets/byid/${body.pet_id}?lang=en`,
          headers: w.headers.owner,
        });
        expect(english.json().breed).toBe(en);
      },
    );

    it('answers in ?lang= on creation', async () => {
      const response = await create({ ...newPet, breed_id: 1003 }, w.headers.owner, '?lang=pt-BR');
      expect(response.statusCode).toBe(201);
      expect(response.json().breed).toBe("Cão d'Água Português");
    });

    it('answers in the user’s own locale without ?lang=', async () => {
      await buildCustomer(t.db, { email: 'eve@clinic.test', password: PASSWORD, locale: 'en' });
      const { headers } = await t.loginAs('eve@clinic.test', PASSWORD);
      const response = await create({ ...newPet, species: 'Cat', breed_id: 2002 }, headers);
      expect(response.json().breed).toBe('European Shorthair');
    });

    it.each([
      ['a cat breed for a dog', 'Dog', 2002],
      ['a dog breed for a cat', 'Cat', 1003],
      ['an id in no list', 'Dog', 1999],
      ['an id far outside the catalogue', 'Dog', 424242],
      ['any breed id for Other', 'Other', 1003],
      ['any breed id for a free-text species', 'Rabbit', 1003],
    ])('answers 400 breed_id invalid_value for %s, storing nothing', async (_label, species, breed_id) => {
      const before = await t.db.select().from(pets);
      const response = await create({ ...newPet, species, breed_id }, w.headers.owner);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'validation_failed',
        message: expect.any(String),
        fields: { breed_id: 'invalid_value' },
      });
      expect(await t.db.select().from(pets)).toHaveLength(before.length);
    });

    it('keeps a free-text species and breed as typed; "other" becomes Other', async () => {
      const rabbit = await create({ ...newPet, species: ' Rabbit ', breed: ' Angora ' }, w.headers.owner);
      expect(rabbit.statusCode).toBe(201);
      expect(rabbit.json()).toMatchObject({ species: 'Rabbit', breed_id: null, breed: 'Angora' });
      const other = await create({ ...newPet, species: 'other', breed: '' }, w.headers.owner);
      expect(other.json()).toMatchObject({ species: 'Other', breed_id: null, breed: '' });
    });
  });

  describe('policy', () => {
    it('drops the policy when insurance is not in use', async () => {
      expect(t.config.insuranceEnabled).toBe(false);
      const response = await create({ ...newPet, policy: 'POL12345678' }, w.headers.owner);
      expect(response.statusCode).toBe(201);
      expect(response.json().policy).toBeNull();
      expect((await storedPet(t, response.json().pet_id))!.policy).toBeNull();
    });

    it('stores the policy when insurance is in use (INSURANCE_ENABLED=true); an empty one is none', async () => {
      await t.close();
      t = await buildTestApp({ env: { INSURANCE_ENABLED: 'true' } });
      w = await buildWorld(t);
      expect(t.config.insuranceEnabled).toBe(true);
      const response = await create({ ...newPet, policy: ' POL12345678 ' }, w.headers.owner);
      expect(response.statusCode).toBe(201);
      expect(response.json().policy).toBe('POL12345678');
      expect((await storedPet(t, response.json().pet_id))!.policy).toBe('POL12345678');
      const none = await create({ ...newPet, policy: '' }, w.headers.owner);
      expect(none.json().policy).toBeNull();
      const bad = await create({ ...newPet, policy: 'POL-123' }, w.headers.owner);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toEqual({ policy: 'invalid_format' });
    });
  });

  it.each([
    ['a short name', { name: 'P' }, { name: 'too_short' }],
    ['a missing name', { name: undefined }, { name: 'required' }],
    ['a one-letter species', { species: 'X' }, { species: 'too_short' }],
    ['a blank species', { species: '  ' }, { species: 'required' }],
    ['a one-letter free-text breed', { breed: 'R' }, { breed: 'too_short' }],
    ['a missing gender', { gender: undefined }, { gender: 'required' }],
    ['a missing fertile status', { fertile_status: undefined }, { fertile_status: 'required' }],
    ['a weight finer than 0.1', { weight: 10.25 }, { weight: 'invalid_format' }],
    ['a negative weight', { weight: -0.1 }, { weight: 'too_small' }],
    ['a weight over 999', { weight: 999.1 }, { weight: 'too_big' }],
    ['a weight as text', { weight: '10.3' }, { weight: 'required' }],
    ['a missing weight', { weight: undefined }, { weight: 'required' }],
    ['a birth before 1950', { birth: '1949-12-31' }, { birth: 'too_small' }],
    ['a birth in the future', { birth: '2999-01-01' }, { birth: 'too_big' }],
    ['an impossible birth', { birth: '2023-02-29' }, { birth: 'invalid_format' }],
    ['a birth with a time', { birth: '2023-04-01T10:00' }, { birth: 'invalid_format' }],
    ['a missing birth', { birth: undefined }, { birth: 'required' }],
    ['a 7-character policy', { policy: 'ABC1234' }, { policy: 'invalid_format' }],
    ['a 20-character policy', { policy: 'ABCDEFGHIJ0123456789' }, { policy: 'invalid_format' }],
    ['a policy with symbols', { policy: 'ABCD/1234' }, { policy: 'invalid_format' }],
    ['a zero breed id', { breed_id: 0 }, { breed_id: 'too_small' }],
  ])('answers 400 with per-field codes for %s, storing nothing', async (_label, patch, fields) => {
    const before = await t.db.select().from(pets);
    const response = await create({ ...newPet, ...patch }, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
    expect(await t.db.select().from(pets)).toHaveLength(before.length);
  });

  it('accepts the weight and birth limits: 0, 999, 10.3, 0.1 + 0.2 and 1950-01-01', async () => {
    for (const patch of [{ weight: 0 }, { weight: 999 }, { weight: 0.1 + 0.2 }, { birth: '1950-01-01' }]) {
      const response = await create({ ...newPet, ...patch }, w.headers.owner);
      expect(response.statusCode, JSON.stringify(patch)).toBe(201);
    }
    const floating = await create({ ...newPet, weight: 0.1 + 0.2 }, w.headers.owner);
    expect(floating.json().weight).toBe(0.3);
  });
});

describe('PUT /api/pets/{pet_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const put = (petId: number | string, payload: unknown, headers: Headers, query = '') =>
    t.app.inject({ method: 'PUT', url: `/api/pets/${petId}${query}`, payload: payload as object, headers });

  const edit = {
    name: 'Bobi II',
    species: 'Dog',
    breed_id: 1019,
    breed: '',
    gender: 'M',
    birth: '2020-05-18',
    fertile_status: 'intact',
    weight: 22.7,
    policy: null,
  };

  it('changes the owner’s pet and answers it', async () => {
    const response = await put(w.historyPet.id, edit, w.headers.owner, '?lang=en');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      pet_id: w.historyPet.id,
      user_id: w.owner.user.id,
      customer_id: w.owner.customer.id,
      name: 'Bobi II',
      species: 'Dog',
      breed_id: 1019,
      breed: 'Labrador Retriever',
      gender: 'M',
      birth: '2020-05-18',
      fertile_status: 'intact',
      weight: 22.7,
      policy: null,
      archived: false,
    });
    expectNoSecrets(response.json());
    const reread = await t.app.inject({
      method: 'GET',
      url: `/api/pets/byid/${w.historyPet.id}`,
      headers: w.headers.owner,
    });
    expect(reread.json()).toMatchObject({ name: 'Bobi II', weight: 22.7, breed_id: 1019 });
  });

  it('moving a pet to a free-text species clears its catalogue breed', async () => {
    const response = await put(
      w.historyPet.id,
      { ...edit, species: 'Other', breed_id: null, breed: 'Ferret' },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ species: 'Other', breed_id: null, breed: 'Ferret' });
    expect(await storedPet(t, w.historyPet.id)).toMatchObject({ breedId: null, breed: 'Ferret' });
  });

  it('answers 400 breed_id invalid_value for a breed of another species, changing nothing', async () => {
    const before = await storedPet(t, w.historyPet.id);
    const response = await put(w.historyPet.id, { ...edit, species: 'Cat', breed_id: 1003 }, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ breed_id: 'invalid_value' });
    expect(await storedPet(t, w.historyPet.id)).toEqual(before);
  });

  it.each([
    ['manager', 403],
    ['vetWithAppointment', 403],
    ['vetWithout', 403],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const)('refuses %s with %i and changes nothing', async (role, status) => {
    const before = await storedPet(t, w.historyPet.id);
    const response = await put(w.historyPet.id, edit, w.headers[role]);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
    expect(await storedPet(t, w.historyPet.id)).toEqual(before);
  });

  it('answers the owner 404 for Bruno’s pet, the same as for a pet that does not exist', async () => {
    const hidden = await put(w.otherPet.id, edit, w.headers.owner);
    const missing = await put(999_999, edit, w.headers.owner);
    expect(hidden.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(hidden.json()).toEqual(missing.json());
    expect((await storedPet(t, w.otherPet.id))!.name).toBe('Tareco');
  });

  it('drops a policy unless insurance is in use', async () => {
    const response = await put(w.plainPet.id, { ...edit, policy: 'ABCD12345' }, w.headers.owner);
    expect(response.json().policy).toBeNull();
  });

  it('keeps a policy when insurance is in use, and clears it when sent empty', async () => {
    await t.close();
    t = await buildTestApp({ env: { INSURANCE_ENABLED: 'true' } });
    w = await buildWorld(t);
    const set = await put(w.plainPet.id, { ...edit, policy: 'ABCD12345' }, w.headers.owner);
    expect(set.json().policy).toBe('ABCD12345');
    const cleared = await put(w.plainPet.id, { ...edit, policy: '' }, w.headers.owner);
    expect(cleared.json().policy).toBeNull();
  });

  it.each([
    ['a weight finer than 0.1', { weight: 22.75 }, { weight: 'invalid_format' }],
    ['a birth before 1950', { birth: '1949-12-31' }, { birth: 'too_small' }],
    ['a short name', { name: 'B' }, { name: 'too_short' }],
    ['a policy too short', { policy: 'ABC' }, { policy: 'invalid_format' }],
    [
      'no body fields',
      Object.fromEntries(Object.keys(edit).map((key) => [key, undefined])),
      {
        name: 'required',
        species: 'required',
        gender: 'required',
        birth: 'required',
        fertile_status: 'required',
        weight: 'required',
      },
    ],
  ])('answers 400 with per-field codes for %s', async (_label, patch, fields) => {
    const before = await storedPet(t, w.historyPet.id);
    const response = await put(w.historyPet.id, { ...edit, ...patch }, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
    expect(await storedPet(t, w.historyPet.id)).toEqual(before);
  });
});

describe('DELETE /api/pets/{pet_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const remove = (petId: number | string, headers: Headers) =>
    t.app.inject({ method: 'DELETE', url: `/api/pets/${petId}`, headers });
  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  it('really deletes a pet without appointments (archived: false)', async () => {
    const response = await remove(w.plainPet.id, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pet_id: w.plainPet.id, archived: false });
    expect(await storedPet(t, w.plainPet.id)).toBeUndefined();
    expect((await get(`/api/pets/byid/${w.plainPet.id}`, w.headers.owner)).statusCode).toBe(404);
    expect((await remove(w.plainPet.id, w.headers.owner)).statusCode).toBe(404);
  });

  it('archives a pet with appointments (archived: true), keeping its history readable by those allowed', async () => {
    const response = await remove(w.historyPet.id, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ pet_id: w.historyPet.id, archived: true });
    expect((await storedPet(t, w.historyPet.id))!.archivedAt).toBeInstanceOf(Date);
    expect(await t.db.select().from(appointments).where(eq(appointments.petId, w.historyPet.id))).toHaveLength(1);

    // Gone from the list…
    for (const role of ['owner', 'manager', 'vetWithAppointment'] as const) {
      const list = await get(`/api/pets/customer/${w.owner.customer.id}`, w.headers[role]);
      expect(list.statusCode).toBe(200);
      expect(list.json().map((pet: { pet_id: number }) => pet.pet_id)).toEqual([w.plainPet.id]);
    }
    // …still there by id and in the record, for those allowed.
    for (const role of ['owner', 'manager', 'vetWithAppointment'] as const) {
      const byId = await get(`/api/pets/byid/${w.historyPet.id}`, w.headers[role]);
      expect(byId.statusCode, role).toBe(200);
      expect(byId.json()).toMatchObject({ pet_id: w.historyPet.id, name: 'Bobi', archived: true });
      const record = await get(`/api/pets/record/${w.historyPet.id}/en`, w.headers[role]);
      expect(record.statusCode, role).toBe(200);
      expect(record.json().pet.archived).toBe(true);
      expect(record.json().history.map((entry: { appointment_id: number }) => entry.appointment_id)).toEqual([
        w.appointment.id,
      ]);
    }
    for (const role of ['otherCustomer', 'vetWithout'] as const) {
      expect((await get(`/api/pets/byid/${w.historyPet.id}`, w.headers[role])).statusCode, role).toBe(404);
    }

    // An archived pet can no longer be changed or removed again.
    expect((await remove(w.historyPet.id, w.headers.owner)).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/pets/${w.historyPet.id}`,
      payload: newPet,
      headers: w.headers.owner,
    });
    expect(put.statusCode).toBe(404);
  });

  it.each([
    ['manager', 403],
    ['vetWithAppointment', 403],
    ['vetWithout', 403],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const)('refuses %s with %i and removes nothing', async (role, status) => {
    for (const pet of [w.historyPet, w.plainPet]) {
      const response = await remove(pet.id, w.headers[role]);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
      expect((await storedPet(t, pet.id))!.archivedAt).toBeNull();
    }
  });

  it('answers 404 for a pet that does not exist and 400 for a bad id', async () => {
    expect((await remove(999_999, w.headers.owner)).statusCode).toBe(404);
    const bad = await remove('abc', w.headers.owner);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('pet_id');
  });
});

describe('POST /api/pets/customer/{customer_id}/changes', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const send = (customerId: number | string, payload: unknown, headers: Headers, query = '') =>
    t.app.inject({
      method: 'POST',
      url: `/api/pets/customer/${customerId}/changes${query}`,
      payload: payload as object,
      headers,
    });

  const snapshot = async () => (await t.db.select().from(pets)).sort((a, b) => a.id - b.id);

  it('applies creates, updates and deletes of one Save and answers each', async () => {
    const withHistory = await buildPet(t.db, w.owner.customer.id, { name: 'Velho' });
    await buildAppointment(t.db, {
      customerUserId: w.owner.user.id,
      petId: withHistory.id,
      vetUserId: w.vetWithAppointment.user.id,
    });
    const response = await send(
      w.owner.customer.id,
      {
        create: [newPet, { ...newPet, name: 'Nina', species: 'Cat', breed_id: 2002, breed: '' }],
        update: [{ ...newPet, pet_id: w.historyPet.id, name: 'Bobi Renamed', breed_id: 1003 }],
        delete: [w.plainPet.id, withHistory.id],
      },
      w.headers.owner,
      '?lang=en',
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['created', 'removed', 'updated']);
    expect(body.created).toHaveLength(2);
    expect(body.created[0]).toMatchObject({ name: 'Pipoca', customer_id: w.owner.customer.id, archived: false });
    expect(body.created[1]).toMatchObject({ name: 'Nina', breed_id: 2002, breed: 'European Shorthair' });
    expect(body.updated).toEqual([
      expect.objectContaining({ pet_id: w.historyPet.id, name: 'Bobi Renamed', breed: 'Portuguese Water Dog' }),
    ]);
    expect(body.removed).toEqual([
      { pet_id: w.plainPet.id, archived: false },
      { pet_id: withHistory.id, archived: true },
    ]);
    expectNoSecrets(body);

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/pets/customer/${w.owner.customer.id}`,
      headers: w.headers.owner,
    });
    expect(list.json().map((pet: { name: string }) => pet.name)).toEqual(['Bobi Renamed', 'Pipoca', 'Nina']);
  });

  it('accepts an empty Save', async () => {
    const response = await send(w.owner.customer.id, {}, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ created: [], updated: [], removed: [] });
  });

  it('is all or nothing: an update of another customer’s pet fails with 404 and none of the creates or deletes stay', async () => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      {
        create: [newPet, { ...newPet, name: 'Nina' }],
        update: [{ ...newPet, pet_id: w.otherPet.id, name: 'Stolen' }],
        delete: [w.plainPet.id],
      },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: expect.any(String) });
    expect(await snapshot()).toEqual(before);
    expect((await storedPet(t, w.otherPet.id))!.name).toBe('Tareco');
  });

  it('is all or nothing: an invalid breed in the second create undoes the first create, the update and the delete', async () => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      {
        create: [
          { ...newPet, name: 'Valid' },
          { ...newPet, name: 'Wrong', species: 'Cat', breed_id: 1003 },
        ],
        update: [{ ...newPet, pet_id: w.historyPet.id, name: 'Changed' }],
        delete: [w.plainPet.id],
      },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ breed_id: 'invalid_value' });
    expect(await snapshot()).toEqual(before);
    expect(await t.db.select().from(pets).where(eq(pets.name, 'Valid'))).toEqual([]);
  });

  it('is all or nothing: a delete of another customer’s pet fails with 404 and archives nothing', async () => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      { create: [newPet], delete: [w.historyPet.id, w.otherPet.id] },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('is all or nothing: deleting and then updating the same pet fails and changes nothing', async () => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      { create: [newPet], update: [{ ...newPet, pet_id: w.plainPet.id }], delete: [w.plainPet.id] },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 with the path of the bad element, applying nothing', async () => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      {
        create: [newPet, { ...newPet, weight: 10.25 }],
        update: [{ ...newPet, pet_id: 0 }],
        delete: ['x'],
      },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { 'create.1.weight': 'invalid_format', 'update.0.pet_id': 'too_small', 'delete.0': 'required' },
    });
    expect(await snapshot()).toEqual(before);
  });

  it('answers 400 for more than 50 elements in a list', async () => {
    const response = await send(
      w.owner.customer.id,
      { create: Array.from({ length: 51 }, () => newPet) },
      w.headers.owner,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('create');
  });

  it.each([
    ['manager', 403],
    ['vetWithAppointment', 403],
    ['vetWithout', 403],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const)('refuses %s on the owner’s record with %i, applying nothing', async (role, status) => {
    const before = await snapshot();
    const response = await send(
      w.owner.customer.id,
      { create: [newPet], update: [{ ...newPet, pet_id: w.historyPet.id }], delete: [w.plainPet.id] },
      w.headers[role],
    );
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: errorOf[status], message: expect.any(String) });
    expect(await snapshot()).toEqual(before);
  });

  it('answers a customer the same 404 for another customer’s record and for one that does not exist', async () => {
    const other = await send(w.otherCustomer.customer.id, { create: [newPet] }, w.headers.owner);
    const missing = await send(999_999, { create: [newPet] }, w.headers.owner);
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual(other.json());
  });

  it('answers 400 for a bad customer id', async () => {
    const response = await send('abc', {}, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('customer_id');
  });
});
