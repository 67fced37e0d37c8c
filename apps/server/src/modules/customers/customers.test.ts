import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../../demo-data/factories.ts';
import { customers, sessions, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { registrationInput } from '../../../test/registration-input.ts';
import { CUSTOMER_RATE_LIMITS } from './customers.service.ts';

const PASSWORD = 'secret-pass';
const FIFTEEN_MINUTES = 15 * 60 * 1000;

type Role = 'owner' | 'otherCustomer' | 'vetWithAppointment' | 'vetWithout' | 'manager' | 'anonymous';

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
  expect(keys.filter((key) => /password|hash|token/i.test(key))).toEqual([]);
  expect(JSON.stringify(body)).not.toMatch(/\$argon2/);
}

/**
 * Everyone the rules distinguish: the owner (Ana), another customer (Bruno), a vet who has an
 * appointment with Ana, a vet who has none, and a manager. Staff are made first so that user ids and
 * customer ids differ.
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta' });
  const vetWithAppointment = await buildVet(t.db, { email: 'vet.rui@clinic.test', password: PASSWORD, name: 'Rui' });
  const vetWithout = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const owner = await buildCustomer(t.db, {
    email: 'ana@clinic.test',
    password: PASSWORD,
    name: 'Ana Silva',
    phone: '912345678',
    address: 'Rua Augusta 1',
    taxId: '123456789',
    postalCode: '1100-048',
    city: 'Lisboa',
    state: 'Lisboa',
    country: 'PT',
  });
  const otherCustomer = await buildCustomer(t.db, { email: 'bruno@clinic.test', password: PASSWORD, name: 'Bruno' });
  const pet = await buildPet(t.db, owner.customer.id, { name: 'Bobi' });
  await buildAppointment(t.db, {
    customerUserId: owner.user.id,
    petId: pet.id,
    vetUserId: vetWithAppointment.user.id,
  });
  // Bruno sees the other vet, which gives that vet nothing on Ana.
  const brunoPet = await buildPet(t.db, otherCustomer.customer.id, { name: 'Tareco', species: 'Cat' });
  await buildAppointment(t.db, {
    customerUserId: otherCustomer.user.id,
    petId: brunoPet.id,
    vetUserId: vetWithout.user.id,
  });

  const headers: Record<Role, Record<string, string>> = {
    owner: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    otherCustomer: (await t.loginAs('bruno@clinic.test', PASSWORD)).headers,
    vetWithAppointment: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    vetWithout: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, vetWithAppointment, vetWithout, owner, otherCustomer, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

const registration = registrationInput();

const profileEdit = {
  name: 'Ana Maria Silva',
  email: 'ana@clinic.test',
  phone: '961112233',
  tax_id: '111222333',
  address: 'Rua do Ouro 50',
  postal_code: '1100-062',
  city: 'Lisboa',
  state: 'Lisboa',
  country: 'PT',
  vet_center: 'Clínica da Baixa',
};

describe('GET /api/users/checkemail/{email}', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const check = (email: string, remoteAddress?: string) =>
    t.app.inject({ method: 'GET', url: `/api/users/checkemail/${encodeURIComponent(email)}`, remoteAddress });

  it('answers [] for a free email, without authentication', async () => {
    const response = await check('free@clinic.test');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });

  it('answers a non-empty list for an email taken by anyone (customer, vet or manager), in any case', async () => {
    await buildCustomer(t.db, { email: 'cust@clinic.test' });
    await buildVet(t.db, { email: 'vet@clinic.test' });
    await buildManager(t.db, { email: 'boss@clinic.test' });
    for (const email of ['cust@clinic.test', 'VET@Clinic.test', ' boss@clinic.test ']) {
      const response = await check(email);
      expect(response.statusCode, email).toBe(200);
      expect(response.json(), email).toEqual([{ email: email.trim().toLowerCase() }]);
      expectNoSecrets(response.json());
    }
  });

  it.each(['not-an-email', 'ana@', '@clinic.test'])('answers 400 email invalid_email for %j', async (email) => {
    const response = await check(email);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: { email: 'invalid_email' },
    });
  });

  describe('rate limit', () => {
    let clock: ReturnType<typeof fixedClock>;
    beforeEach(async () => {
      await t.close();
      clock = fixedClock('2030-03-04T10:00:00.000Z');
      t = await buildTestApp({ clock });
    });

    it('allows the configured number of checks per IP in 15 minutes, then 429 with retry-after', async () => {
      const { limit, windowMs } = CUSTOMER_RATE_LIMITS.checkEmailPerIp;
      expect(windowMs).toBe(FIFTEEN_MINUTES);
      for (let i = 1; i <= limit; i++) {
        const response = await check(`probe${i}@clinic.test`, '203.0.113.7');
        expect(response.statusCode, `check ${i}`).toBe(200);
      }
      clock.advance(60_000);
      const refused = await check('probe@clinic.test', '203.0.113.7');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });
      expect(refused.headers['retry-after']).toBe(String((windowMs - 60_000) / 1000));

      // Another IP is not affected.
      expect((await check('probe@clinic.test', '203.0.113.8')).statusCode).toBe(200);

      clock.advance(windowMs - 60_000);
      expect((await check('probe@clinic.test', '203.0.113.7')).statusCode).toBe(200);
    });
  });
});

describe('POST /api/users/customer (registration)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const register = (payload: unknown, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/customer', payload: payload as object, remoteAddress });

  it('creates the customer without authentication, answers 201 {user_id}, and the new customer can log in', async () => {
    const response = await register({ ...registration, email: '  Carla@Clinic.TEST ', name: ' Carla Sousa ' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({ user_id: expect.any(Number) });

    const [user] = await t.db.select().from(users).where(eq(users.id, body.user_id));
    expect(user).toMatchObject({
      type: 'customer',
      name: 'Carla Sousa',
      email: 'carla@clinic.test',
      phone: '934567890',
      address: 'Avenida da Boavista 100',
      locale: 'pt',
      active: true,
    });
    // Stored hashed, never as typed.
    expect(user!.passwordHash).not.toContain('amber kettle 42');
    expect(user!.passwordHash).toMatch(/^\$argon2/);
    const [customer] = await t.db.select().from(customers).where(eq(customers.userId, body.user_id));
    expect(customer).toMatchObject({
      taxId: '987654321',
      postalCode: '4100-112',
      city: 'Porto',
      state: 'Porto',
      country: 'PT',
      vetCenter: '',
    });

    const { headers } = await t.loginAs('carla@clinic.test', 'amber kettle 42');
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(me.json()).toMatchObject({ user_id: body.user_id, type: 'customer' });
    const own = await t.app.inject({ method: 'GET', url: '/api/users/customer/byemail/carla@clinic.test', headers });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ user_id: body.user_id, customer_id: customer!.id, name: 'Carla Sousa' });
  });

  it('keeps the chosen locale and vet_center', async () => {
    const response = await register({ ...registration, locale: 'en', vet_center: 'Clínica Norte' });
    expect(response.statusCode).toBe(201);
    const { user_id } = response.json();
    const [user] = await t.db.select().from(users).where(eq(users.id, user_id));
    expect(user!.locale).toBe('en');
    const [customer] = await t.db.select().from(customers).where(eq(customers.userId, user_id));
    expect(customer!.vetCenter).toBe('Clínica Norte');
  });

  it.each([
    ['US', '90210'],
    ['BR', '01310-100'],
  ])('registers a customer of %s with postal code %s', async (country, postal_code) => {
    const response = await register({ ...registration, country, postal_code });
    expect(response.statusCode).toBe(201);
  });

  it('answers 409 email_in_use with email taken for an email already used (any case, any role), storing nothing', async () => {
    await buildCustomer(t.db, { email: 'carla@clinic.test' });
    await buildVet(t.db, { email: 'vet@clinic.test' });
    const before = await t.db.select().from(users);
    for (const email of ['carla@clinic.test', 'CARLA@clinic.test', 'vet@clinic.test']) {
      const response = await register({ ...registration, email });
      expect(response.statusCode, email).toBe(409);
      expect(response.json()).toEqual({
        error: 'email_in_use',
        message: expect.any(String),
        fields: { email: 'taken' },
      });
    }
    expect(await t.db.select().from(users)).toHaveLength(before.length);
  });

  it('answers 400 with every missing field', async () => {
    const response = await register({});
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_failed',
      message: expect.any(String),
      fields: {
        name: 'required',
        email: 'required',
        phone: 'required',
        tax_id: 'required',
        address: 'required',
        postal_code: 'required',
        city: 'required',
        state: 'required',
        country: 'required',
        password: 'required',
        confirmation: 'required',
      },
    });
  });

  it.each([
    ['a short name', { name: 'C' }, { name: 'too_short' }],
    ['a blank name', { name: '   ' }, { name: 'required' }],
    ['an invalid email', { email: 'carla' }, { email: 'invalid_email' }],
    ['a short phone', { phone: '12345' }, { phone: 'too_short' }],
    ['an empty tax id', { tax_id: '' }, { tax_id: 'required' }],
    ['an empty address', { address: '' }, { address: 'required' }],
    ['an empty city', { city: ' ' }, { city: 'required' }],
    ['an empty state', { state: '' }, { state: 'required' }],
    [
      'a short password',
      { password: '12345', confirmation: '12345' },
      { password: 'too_short', confirmation: 'too_short' },
    ],
    ['a confirmation that differs', { confirmation: 'amber kettle 43' }, { confirmation: 'passwords_mismatch' }],
    ['a PT postal code without its dash', { postal_code: '4100112' }, { postal_code: 'invalid_format' }],
    ['a US code for Portugal', { postal_code: '90210' }, { postal_code: 'invalid_format' }],
    ['a PT code for the US', { country: 'US', postal_code: '4100-112' }, { postal_code: 'invalid_format' }],
    ['a BR code without its dash', { country: 'BR', postal_code: '01310100' }, { postal_code: 'invalid_format' }],
    ['an unknown locale', { locale: 'fr' }, { locale: 'invalid_value' }],
    ['wrong types', { name: 42, phone: null }, { name: 'required', phone: 'required' }],
  ])('answers 400 with per-field codes for %s, storing nothing', async (_label, patch, fields) => {
    const response = await register({ ...registration, ...patch });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
    expect(await t.db.select().from(users)).toEqual([]);
  });

  it('answers 400 for an unsupported country', async () => {
    const response = await register({ ...registration, country: 'ES', postal_code: '28001' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toHaveProperty('country');
  });

  it('never echoes the password', async () => {
    const response = await register(registration);
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain('amber kettle 42');
    expectNoSecrets(response.json());
  });

  describe('rate limit', () => {
    let clock: ReturnType<typeof fixedClock>;
    beforeEach(async () => {
      await t.close();
      clock = fixedClock('2030-03-04T10:00:00.000Z');
      t = await buildTestApp({ clock });
    });

    it('allows the configured number of registrations per IP in 15 minutes, then 429', async () => {
      const { limit, windowMs } = CUSTOMER_RATE_LIMITS.registrationPerIp;
      expect(windowMs).toBe(FIFTEEN_MINUTES);
      for (let i = 1; i <= limit; i++) {
        const response = await register({ ...registration, email: `new${i}@clinic.test` }, '203.0.113.9');
        expect(response.statusCode, `registration ${i}`).toBe(201);
      }
      const refused = await register({ ...registration, email: 'late@clinic.test' }, '203.0.113.9');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });
      expect(Number(refused.headers['retry-after'])).toBe(windowMs / 1000);
      expect(await t.db.select().from(users).where(eq(users.email, 'late@clinic.test'))).toEqual([]);

      expect((await register({ ...registration, email: 'late@clinic.test' }, '203.0.113.10')).statusCode).toBe(201);
      clock.advance(windowMs);
      expect((await register({ ...registration, email: 'later@clinic.test' }, '203.0.113.9')).statusCode).toBe(201);
    });
  });
});

describe('GET /api/users/customer/byemail/{email}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (email: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/users/customer/byemail/${encodeURIComponent(email)}`, headers });

  it('answers the owner their full customer record, without secrets', async () => {
    expect(w.owner.customer.id).not.toBe(w.owner.user.id);
    const response = await get('ana@clinic.test', w.headers.owner);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      user_id: w.owner.user.id,
      customer_id: w.owner.customer.id,
      name: 'Ana Silva',
      email: 'ana@clinic.test',
      phone: '912345678',
      tax_id: '123456789',
      address: 'Rua Augusta 1',
      postal_code: '1100-048',
      city: 'Lisboa',
      state: 'Lisboa',
      country: 'PT',
      vet_center: '',
    });
    expectNoSecrets(body);
  });

  it.each([
    ['owner', 200],
    ['manager', 200],
    ['vetWithAppointment', 200],
    ['vetWithout', 404],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const)('answers %s with %i', async (role, status) => {
    const response = await get('ana@clinic.test', w.headers[role]);
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      expect(response.json().user_id).toBe(w.owner.user.id);
      expectNoSecrets(response.json());
    } else {
      expect(response.json()).toEqual({
        error: status === 401 ? 'unauthorized' : 'not_found',
        message: expect.any(String),
      });
    }
  });

  it('matches the email in any case', async () => {
    const response = await get('  ANA@Clinic.test ', w.headers.manager);
    expect(response.statusCode).toBe(200);
    expect(response.json().user_id).toBe(w.owner.user.id);
  });

  it('answers the same 404 for an unknown email, a staff email and a hidden customer (nothing leaks)', async () => {
    const unknown = await get('ghost@clinic.test', w.headers.manager);
    const staff = await get('vet.rui@clinic.test', w.headers.manager);
    const hidden = await get('ana@clinic.test', w.headers.vetWithout);
    for (const response of [unknown, staff, hidden]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(unknown.json());
    }
  });

  it('lets a vet see a customer once they have any appointment, and only that customer', async () => {
    expect((await get('bruno@clinic.test', w.headers.vetWithAppointment)).statusCode).toBe(404);
    expect((await get('bruno@clinic.test', w.headers.vetWithout)).statusCode).toBe(200);
  });

  it('answers 400 for a malformed email', async () => {
    const response = await get('ana', w.headers.manager);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ email: 'invalid_email' });
  });
});

describe('PUT /api/users/customer/{user_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const put = (userId: number | string, payload: unknown, headers: Record<string, string>) =>
    t.app.inject({ method: 'PUT', url: `/api/users/customer/${userId}`, payload: payload as object, headers });

  const storedAna = async () => {
    const [row] = await t.db
      .select({ user: users, customer: customers })
      .from(users)
      .innerJoin(customers, eq(customers.userId, users.id))
      .where(eq(users.id, w.owner.user.id));
    return row!;
  };

  it('updates the owner’s profile and answers {user_id, email_changed: false}; the session stays', async () => {
    const response = await put(w.owner.user.id, profileEdit, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user_id: w.owner.user.id, email_changed: false });

    const reread = await t.app.inject({
      method: 'GET',
      url: '/api/users/customer/byemail/ana@clinic.test',
      headers: w.headers.owner,
    });
    expect(reread.statusCode).toBe(200);
    expect(reread.json()).toEqual({ user_id: w.owner.user.id, customer_id: w.owner.customer.id, ...profileEdit });
  });

  it('ignores a password in the body (it is not changed here)', async () => {
    const response = await put(w.owner.user.id, { ...profileEdit, password: 'hijack-pass' }, w.headers.owner);
    expect(response.statusCode).toBe(200);
    await expect(t.loginAs('ana@clinic.test', PASSWORD)).resolves.toBeDefined();
    await expect(t.loginAs('ana@clinic.test', 'hijack-pass')).rejects.toThrow();
  });

  it('does not count a change of case as an email change', async () => {
    const response = await put(w.owner.user.id, { ...profileEdit, email: 'ANA@Clinic.Test' }, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json().email_changed).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: w.headers.owner })).statusCode).toBe(200);
  });

  it('on an email change answers email_changed: true and revokes every session of the customer', async () => {
    const secondDevice = await t.loginAs('ana@clinic.test', PASSWORD);
    const response = await put(w.owner.user.id, { ...profileEdit, email: 'Ana.New@clinic.test' }, w.headers.owner);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user_id: w.owner.user.id, email_changed: true });

    for (const headers of [w.headers.owner, secondDevice.headers]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(401);
    }
    const live = await t.db.select().from(sessions).where(eq(sessions.userId, w.owner.user.id));
    expect(live.every((session) => session.revokedAt !== null)).toBe(true);
    // Other people's sessions are untouched.
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: w.headers.otherCustomer })).statusCode).toBe(
      200,
    );

    expect((await storedAna()).user.email).toBe('ana.new@clinic.test');
    await expect(t.loginAs('ana@clinic.test', PASSWORD)).rejects.toThrow();
    const relogin = await t.loginAs('ana.new@clinic.test', PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: relogin.headers })).statusCode).toBe(200);
    const freed = await t.app.inject({ method: 'GET', url: '/api/users/checkemail/ana@clinic.test' });
    expect(freed.json()).toEqual([]);
  });

  it('answers 409 email_in_use with email taken for an email of someone else, changing nothing', async () => {
    const before = await storedAna();
    for (const email of ['bruno@clinic.test', 'BOSS@clinic.test', 'vet.rui@clinic.test']) {
      const response = await put(w.owner.user.id, { ...profileEdit, email }, w.headers.owner);
      expect(response.statusCode, email).toBe(409);
      expect(response.json()).toEqual({
        error: 'email_in_use',
        message: expect.any(String),
        fields: { email: 'taken' },
      });
    }
    expect(await storedAna()).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: w.headers.owner })).statusCode).toBe(200);
  });

  it.each([
    ['manager', 403],
    ['vetWithAppointment', 403],
    ['vetWithout', 403],
    ['otherCustomer', 404],
    ['anonymous', 401],
  ] as const)('refuses %s with %i and changes nothing', async (role, status) => {
    const before = await storedAna();
    const response = await put(w.owner.user.id, { ...profileEdit, email: 'stolen@clinic.test' }, w.headers[role]);
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toBe({ 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' }[status]);
    expect(await storedAna()).toEqual(before);
    // Ana's session was not revoked by someone else's attempt.
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: w.headers.owner })).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user id and for a user id that is not a customer', async () => {
    for (const userId of [999_999, w.vetWithAppointment.user.id, w.manager.user.id]) {
      const response = await put(userId, profileEdit, w.headers.owner);
      expect(response.statusCode, String(userId)).toBe(404);
    }
  });

  it.each([
    ['a short name', { name: 'A' }, { name: 'too_short' }],
    ['an invalid email', { email: 'ana@' }, { email: 'invalid_email' }],
    ['an empty phone', { phone: '' }, { phone: 'required' }],
    ['a short phone', { phone: '123' }, { phone: 'too_short' }],
    ['a blank tax id', { tax_id: '  ' }, { tax_id: 'required' }],
    ['a missing address', { address: undefined }, { address: 'required' }],
    ['a missing city', { city: undefined }, { city: 'required' }],
    ['a missing state', { state: undefined }, { state: 'required' }],
    ['a missing country', { country: undefined }, { country: 'required' }],
    ['a BR code for Portugal', { postal_code: '01310-100' }, { postal_code: 'invalid_format' }],
    ['a PT code for Brazil', { country: 'BR', postal_code: '1100-062' }, { postal_code: 'invalid_format' }],
    ['a 4-digit US code', { country: 'US', postal_code: '9021' }, { postal_code: 'invalid_format' }],
    ['an overlong vet center', { vet_center: 'x'.repeat(121) }, { vet_center: 'too_long' }],
  ])('answers 400 with per-field codes for %s, changing nothing', async (_label, patch, fields) => {
    const before = await storedAna();
    const response = await put(w.owner.user.id, { ...profileEdit, ...patch }, w.headers.owner);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
    expect(await storedAna()).toEqual(before);
  });

  it('answers 400 for a user id that is not a positive integer', async () => {
    for (const userId of ['abc', '0', '-3']) {
      const response = await put(userId, profileEdit, w.headers.owner);
      expect(response.statusCode, userId).toBe(400);
      expect(response.json().fields).toHaveProperty('user_id');
    }
  });

  it('accepts US and BR addresses', async () => {
    for (const [country, postal_code] of [
      ['US', '10001'],
      ['BR', '20040-020'],
    ]) {
      const response = await put(w.owner.user.id, { ...profileEdit, country, postal_code }, w.headers.owner);
      expect(response.statusCode, country).toBe(200);
      expect((await storedAna()).customer).toMatchObject({ country, postalCode: postal_code });
    }
  });
});
