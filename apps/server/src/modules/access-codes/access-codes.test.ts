import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager } from '../../demo-data/factories.ts';
import { accessCodes } from '../../db/schema.ts';
import { seedDemoData } from '../../demo-data/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type Headers, oneOfEachRole, ROLE_PASSWORD as PASSWORD, ROLES } from '../../../test/one-of-each-role.ts';
import { ACCESS_CODE_RATE_LIMITS, isWithinDates } from './access-codes.service.ts';

const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** Noon UTC on 10 June 2030: every test's "today" unless it moves the clock. */
const NOW = '2030-06-10T12:00:00.000Z';

const errorOf = { 401: 'unauthorized', 403: 'forbidden' } as const;

/** A manager, a vet, two customers, and three codes: a free one, a normal one, a disabled free one. */
async function buildWorld(t: TestApp) {
  const { headers } = await oneOfEachRole(t);
  await buildCustomer(t.db, { email: 'bruno@clinic.test', password: PASSWORD });
  const [free, normal, disabled] = await t.db
    .insert(accessCodes)
    .values([
      { code: 'SPRING-FREE', validFrom: '2030-06-01', validTo: '2030-06-30', included: true },
      { code: 'SPRING', validFrom: '2030-05-01', validTo: '2030-07-31', included: false },
      {
        code: 'OLD-FREE',
        validFrom: '2030-01-01',
        validTo: '2030-12-31',
        included: true,
        disabledAt: new Date('2030-02-01T00:00:00Z'),
      },
    ])
    .returning();
  const otherCustomer = (await t.loginAs('bruno@clinic.test', PASSWORD)).headers;
  return { free: free!, normal: normal!, disabled: disabled!, headers, otherCustomer };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

function expectRefused(response: { statusCode: number; json: () => { error: string } }, status: 401 | 403) {
  expect(response.statusCode).toBe(status);
  expect(response.json().error).toBe(errorOf[status]);
}

describe('access codes (docs/product-rules.md#api: /api/appointmentsaccesscodes)', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const base = '/api/appointmentsaccesscodes';
  const list = (headers: Headers) => t.app.inject({ method: 'GET', url: `${base}/`, headers });
  const create = (payload: unknown, headers: Headers = w.headers.manager) =>
    t.app.inject({ method: 'POST', url: `${base}/`, payload: payload as object, headers });
  const toggle = (id: number, action: 'disable' | 'enable', headers: Headers = w.headers.manager) =>
    t.app.inject({ method: 'PUT', url: `${base}/${id}/${action}`, headers });
  const validate = (code: unknown, headers: Headers = w.headers.customer, remoteAddress = '203.0.113.1') =>
    t.app.inject({ method: 'POST', url: `${base}/validate`, payload: { code }, headers, remoteAddress });
  const storedCodes = async () =>
    (await t.db.select({ code: accessCodes.code }).from(accessCodes).orderBy(asc(accessCodes.id))).map((r) => r.code);

  describe('GET /', () => {
    it.each(ROLES)('as %s', async (role) => {
      const response = await list(w.headers[role]);
      if (role === 'manager') {
        expect(response.statusCode).toBe(200);
        // Newest validity first.
        expect(response.json()).toEqual([
          {
            access_code_id: w.free.id,
            code: 'SPRING-FREE',
            valid_from: '2030-06-01',
            valid_to: '2030-06-30',
            included: true,
            disabled: false,
          },
          {
            access_code_id: w.normal.id,
            code: 'SPRING',
            valid_from: '2030-05-01',
            valid_to: '2030-07-31',
            included: false,
            disabled: false,
          },
          {
            access_code_id: w.disabled.id,
            code: 'OLD-FREE',
            valid_from: '2030-01-01',
            valid_to: '2030-12-31',
            included: true,
            disabled: true,
          },
        ]);
      } else expectRefused(response, role === 'none' ? 401 : 403);
    });
  });

  describe('POST / (create)', () => {
    const input = { code: 'summer-2030', valid_from: '2030-07-01', valid_to: '2030-08-31', included: true };

    it.each(ROLES)('as %s', async (role) => {
      const response = await create(input, w.headers[role]);
      if (role === 'manager') {
        expect(response.statusCode).toBe(201);
        expect(response.json()).toEqual({
          access_code_id: expect.any(Number),
          code: 'SUMMER-2030',
          valid_from: '2030-07-01',
          valid_to: '2030-08-31',
          included: true,
          disabled: false,
        });
        expect(await storedCodes()).toContain('SUMMER-2030');
      } else {
        expectRefused(response, role === 'none' ? 401 : 403);
        expect(await storedCodes()).toHaveLength(3);
      }
    });

    it('stores the code trimmed and upper-cased; included defaults to false; one day is a valid range', async () => {
      const response = await create({ code: '  one_day ', valid_from: '2030-06-10', valid_to: '2030-06-10' });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ code: 'ONE_DAY', included: false });
      expect((await validate('one_day')).json()).toEqual({ valid: true, included: false });
    });

    it.each(['spring-free', ' Spring-Free ', 'SPRING-FREE'])(
      'refuses a taken code, whatever its case (%j)',
      async (code) => {
        const response = await create({ ...input, code });
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual({
          error: 'access_code_exists',
          message: expect.any(String),
          fields: { code: 'taken' },
        });
        expect(await storedCodes()).toHaveLength(3);
      },
    );

    it.each([
      ['valid_from after valid_to', { ...input, valid_from: '2030-09-01' }, { valid_to: 'invalid_value' }],
      ['a short code', { ...input, code: 'ab' }, { code: 'too_short' }],
      ['a long code', { ...input, code: 'A'.repeat(41) }, { code: 'too_long' }],
      ['spaces or symbols in the code', { ...input, code: 'SUMMER 2030!' }, { code: 'invalid_format' }],
      ['an impossible date', { ...input, valid_from: '2030-02-30' }, { valid_from: 'invalid_format' }],
      // Found by the route fuzz test (src/fuzz): PostgreSQL has no year 0 and refused the row, a 500.
      ['year 0000', { ...input, valid_from: '0000-01-01' }, { valid_from: 'invalid_format' }],
      ['a date with a time', { ...input, valid_to: '2030-08-31T10:00' }, { valid_to: 'invalid_format' }],
      ['nothing', {}, { code: 'required', valid_from: 'required', valid_to: 'required' }],
    ])('refuses %s with per-field codes', async (_case, payload, fields) => {
      const response = await create(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
      expect(await storedCodes()).toHaveLength(3);
    });
  });

  describe('PUT /{access_code_id}/disable and /enable', () => {
    it.each(ROLES)('as %s', async (role) => {
      const disabled = await toggle(w.free.id, 'disable', w.headers[role]);
      const enabled = await toggle(w.disabled.id, 'enable', w.headers[role]);
      const [free] = await t.db.select().from(accessCodes).where(eq(accessCodes.id, w.free.id));
      const [old] = await t.db.select().from(accessCodes).where(eq(accessCodes.id, w.disabled.id));
      if (role === 'manager') {
        expect(disabled.statusCode).toBe(200);
        expect(disabled.json()).toMatchObject({ access_code_id: w.free.id, code: 'SPRING-FREE', disabled: true });
        expect(free!.disabledAt).toEqual(new Date(NOW));
        expect(enabled.statusCode).toBe(200);
        expect(enabled.json()).toMatchObject({ access_code_id: w.disabled.id, disabled: false });
        expect(old!.disabledAt).toBeNull();
      } else {
        expectRefused(disabled, role === 'none' ? 401 : 403);
        expectRefused(enabled, role === 'none' ? 401 : 403);
        expect(free!.disabledAt).toBeNull();
        expect(old!.disabledAt).not.toBeNull();
      }
    });

    it('a disabled code no longer validates; enabled again, it does; repeating either changes nothing', async () => {
      expect((await validate('SPRING-FREE')).json()).toEqual({ valid: true, included: true });
      expect((await toggle(w.free.id, 'disable')).statusCode).toBe(200);
      expect((await validate('SPRING-FREE')).json()).toEqual({ valid: false, included: false });

      clock.advance(60_000);
      expect((await toggle(w.free.id, 'disable')).json().disabled).toBe(true);
      const [row] = await t.db.select().from(accessCodes).where(eq(accessCodes.id, w.free.id));
      expect(row!.disabledAt).toEqual(new Date(NOW)); // the first disabling time is kept

      expect((await toggle(w.free.id, 'enable')).json().disabled).toBe(false);
      expect((await toggle(w.free.id, 'enable')).json().disabled).toBe(false);
      expect((await validate('SPRING-FREE')).json()).toEqual({ valid: true, included: true });
    });

    it('answers 404 for an unknown code', async () => {
      for (const action of ['disable', 'enable'] as const) {
        const response = await toggle(9999, action);
        expect(response.statusCode).toBe(404);
        expect(response.json().error).toBe('not_found');
      }
    });
  });

  describe('POST /validate', () => {
    it.each(ROLES)('as %s', async (role) => {
      const response = await validate('SPRING-FREE', w.headers[role]);
      if (role === 'customer' || role === 'manager') {
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ valid: true, included: true });
      } else expectRefused(response, role === 'none' ? 401 : 403);
    });

    it('answers included for a free code and not for a normal one; trims and ignores case', async () => {
      expect((await validate('SPRING')).json()).toEqual({ valid: true, included: false });
      expect((await validate('  spring-free  ')).json()).toEqual({ valid: true, included: true });
      expect((await validate('\tSpring\n')).json()).toEqual({ valid: true, included: false });
    });

    it('answers invalid for an unknown or disabled code', async () => {
      expect((await validate('NOPE')).json()).toEqual({ valid: false, included: false });
      expect((await validate('old-free')).json()).toEqual({ valid: false, included: false });
    });

    it('answers 400 for an empty code', async () => {
      const response = await validate('   ');
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ code: 'required' });
    });

    it('answers invalid outside the dates, with a day of slack for the customer’s own time zone', async () => {
      // SPRING-FREE runs from 2030-06-01 to 2030-06-30.
      const cases: [string, boolean][] = [
        ['2030-05-30T12:00:00Z', false], // two days before: today nowhere
        ['2030-05-31T09:00:00Z', false], // 31 May until 10:00 UTC even at UTC+14
        ['2030-05-31T10:00:00Z', true], // already 1 June at UTC+14
        ['2030-06-15T12:00:00Z', true],
        ['2030-07-01T11:59:00Z', true], // still 30 June at UTC−12
        ['2030-07-01T12:00:00Z', false], // 1 July everywhere
        ['2030-08-01T00:00:00Z', false],
      ];
      for (const [now, valid] of cases) {
        clock.set(now);
        // A session lasts a day without use, so each moment gets its own login.
        const { headers } = await t.loginAs('bruno@clinic.test', PASSWORD);
        expect((await validate('spring-free', headers)).json(), now).toEqual({ valid, included: valid });
      }
    });

    it('isWithinDates compares date keys with the widest "today"', () => {
      const june = { validFrom: '2030-06-01', validTo: '2030-06-30' };
      expect(isWithinDates(june, new Date('2030-06-01T00:00:00Z'))).toBe(true);
      expect(isWithinDates(june, new Date('2030-06-30T23:59:59Z'))).toBe(true);
      expect(isWithinDates(june, new Date('2030-05-31T09:59:59Z'))).toBe(false);
      expect(isWithinDates(june, new Date('2030-07-01T12:00:00Z'))).toBe(false);
    });

    it('accepts the seeded DEMO-FREE (included) and DEMO-NORMAL (not included)', async () => {
      // seedDemoData runs only on an empty database, and dates its codes from the real today.
      const seeded = await buildTestApp();
      try {
        expect(await seedDemoData(seeded.db)).toBe(true);
        const { headers } = await seeded.loginAs('customer@vetcall.test');
        const check = (code: string) =>
          seeded.app.inject({ method: 'POST', url: `${base}/validate`, payload: { code }, headers });
        expect((await check('DEMO-FREE')).json()).toEqual({ valid: true, included: true });
        expect((await check('demo-normal')).json()).toEqual({ valid: true, included: false });
        const rows = await seeded.db.select().from(accessCodes).orderBy(asc(accessCodes.code));
        expect(rows.map((row) => row.code)).toEqual(['DEMO-FREE', 'DEMO-NORMAL']);
        const from = new Date(`${rows[0]!.validFrom}T00:00:00Z`);
        from.setUTCFullYear(from.getUTCFullYear() + 1);
        expect(rows[0]!.validTo).toBe(from.toISOString().slice(0, 10));
      } finally {
        await seeded.close();
      }
    });

    describe('rate limit (issue 15 item 2: per user first, per address generously)', () => {
      const { wrongPerUser, wrongPerIp } = ACCESS_CODE_RATE_LIMITS;

      it('counts wrong codes per user: one user’s guesses never refuse another user at the same address', async () => {
        expect([wrongPerUser.windowMs, wrongPerIp.windowMs]).toEqual([FIFTEEN_MINUTES, FIFTEEN_MINUTES]);
        expect(wrongPerIp.limit).toBeGreaterThanOrEqual(10 * wrongPerUser.limit);
        for (let i = 1; i <= wrongPerUser.limit; i++) {
          const response = await validate(`GUESS-${i}`, w.headers.customer, '198.51.100.1');
          expect(response.json(), `check ${i}`).toEqual({ valid: false, included: false });
        }
        clock.advance(60_000);
        const refused = await validate('SPRING', w.headers.customer, '198.51.100.1');
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });
        expect(refused.headers['retry-after']).toBe(String((FIFTEEN_MINUTES - 60_000) / 1000));
        // The same user from another address is still refused (per user)…
        expect((await validate('SPRING', w.headers.customer, '198.51.100.2')).statusCode).toBe(429);
        // …but another user at the same address (a family, a clinic) gets through.
        expect((await validate('SPRING', w.otherCustomer, '198.51.100.1')).json()).toEqual({
          valid: true,
          included: false,
        });

        clock.advance(FIFTEEN_MINUTES);
        expect((await validate('SPRING', w.headers.customer, '198.51.100.1')).statusCode).toBe(200);
      });

      it('never counts a valid code: checking it again and again is never refused', async () => {
        for (let i = 1; i <= wrongPerUser.limit * 2; i++) {
          const response = await validate('spring', w.headers.customer, '198.51.100.1');
          expect(response.statusCode, `check ${i}`).toBe(200);
        }
      });
    });
  });
});

describe('access codes with ACCESS_CODES_ENABLED=false', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp({ env: { ACCESS_CODES_ENABLED: 'false' } });
    await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD });
    await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD });
    await t.db
      .insert(accessCodes)
      .values({ code: 'SPRING', validFrom: '2000-01-01', validTo: '2999-12-31', included: true });
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 404 not_found on every route, with or without a session', async () => {
    const manager = (await t.loginAs('boss@clinic.test', PASSWORD)).headers;
    const customer = (await t.loginAs('ana@clinic.test', PASSWORD)).headers;
    const base = '/api/appointmentsaccesscodes';
    const calls = [
      { method: 'GET', url: `${base}/` },
      {
        method: 'POST',
        url: `${base}/`,
        payload: { code: 'NEW-CODE', valid_from: '2030-01-01', valid_to: '2030-02-01' },
      },
      { method: 'PUT', url: `${base}/1/disable` },
      { method: 'PUT', url: `${base}/1/enable` },
      { method: 'POST', url: `${base}/validate`, payload: { code: 'SPRING' } },
    ] as const;
    for (const headers of [manager, customer, {}]) {
      for (const call of calls) {
        const response = await t.app.inject({ ...call, headers });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(response.json().error).toBe('not_found');
      }
    }
    const rows = await t.db.select().from(accessCodes);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.disabledAt).toBeNull();
  });
});
