import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { LOGIN_LOCKOUT, RATE_LIMITS } from './session-policy.ts';

describe('POST /api/login/', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it.each([
    ['customer', buildCustomer],
    ['vet', buildVet],
    ['manager', buildManager],
  ] as const)('logs a %s in and answers token, type and user', async (type, build) => {
    const { user } = await build(t.db, { email: `${type}@clinic.test`, password: 'secret-pass', name: 'Ana' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: `  ${type.toUpperCase()}@Clinic.test `, password: 'secret-pass' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.type).toBe(type);
    expect(body.user).toEqual({ user_id: user.id, type, name: 'Ana', email: `${type}@clinic.test`, locale: 'pt' });
    expect(body.token).toMatch(/^[\w-]{43}$/);
    expect(JSON.stringify(body)).not.toContain('password');

    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().user_id).toBe(user.id);
  });

  it('answers the same 401 for a wrong password and for an unknown email', async () => {
    await buildCustomer(t.db, { email: 'known@clinic.test', password: 'secret-pass' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'known@clinic.test', password: 'nope-nope' },
    });
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'ghost@clinic.test', password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error).toBe('invalid_login_attempt');
  });
});

describe('POST /api/login/ account rules and validation', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('refuses an inactive account with the same 401 as a wrong password, even with the right password', async () => {
    await buildVet(t.db, { email: 'gone@clinic.test', password: 'secret-pass', active: false });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'gone@clinic.test', password: 'secret-pass' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'invalid_login_attempt', message: expect.any(String) });
    expect(response.body).not.toContain('token');
  });

  it('matches the email case-insensitively and ignores surrounding spaces', async () => {
    const { user } = await buildCustomer(t.db, { email: 'Mixed.Case@Clinic.test', password: 'secret-pass' });
    expect(user.email).toBe('mixed.case@clinic.test');
    for (const email of ['MIXED.CASE@CLINIC.TEST', 'mixed.case@clinic.test', '  Mixed.Case@clinic.TEST ']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email, password: 'secret-pass' },
      });
      expect(response.statusCode, email).toBe(200);
      expect(response.json().user.user_id).toBe(user.id);
    }
  });

  it('checks the password exactly as typed (case and spaces matter)', async () => {
    await buildCustomer(t.db, { email: 'exact@clinic.test', password: 'Secret Pass' });
    for (const password of ['secret pass', 'Secret Pass ', 'SecretPass']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email: 'exact@clinic.test', password },
      });
      expect(response.statusCode, JSON.stringify(password)).toBe(401);
    }
    const exact = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'exact@clinic.test', password: 'Secret Pass' },
    });
    expect(exact.statusCode).toBe(200);
  });

  it.each([
    ['an invalid email and no password', { email: 'not-an-email' }, { email: 'invalid_email', password: 'required' }],
    ['no fields at all', {}, { email: 'required', password: 'required' }],
    ['empty strings', { email: '   ', password: '' }, { email: 'required', password: 'required' }],
    ['wrong types', { email: 42, password: ['x'] }, { email: 'required', password: 'required' }],
    ['an overlong password', { email: 'a@clinic.test', password: 'x'.repeat(129) }, { password: 'too_long' }],
  ])('answers 400 with per-field codes for %s', async (_label, payload, fields) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/login/', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'validation_failed', message: expect.any(String), fields });
  });
});

describe('POST /api/login/ rate limits', () => {
  const start = '2030-03-04T10:00:00.000Z';
  const FIFTEEN_MINUTES = 15 * 60 * 1000;
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(start);
    t = await buildTestApp({ clock });
  });
  afterEach(async () => {
    await t.close();
  });

  const attempt = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/login/', payload: { email, password }, remoteAddress });

  it('refuses login attempts from one IP beyond its 15-minute limit with 429 and retry-after', async () => {
    const { limit } = RATE_LIMITS.loginPerIp;
    expect(RATE_LIMITS.loginPerIp.windowMs).toBe(FIFTEEN_MINUTES);
    await buildCustomer(t.db, { email: 'real@clinic.test', password: 'secret-pass' });
    for (let i = 1; i <= limit; i++) {
      // Different emails, so only the per-IP counter can reach its limit.
      const response = await attempt(`ghost${i}@clinic.test`, 'wrong-pass', '203.0.113.7');
      expect(response.statusCode, `attempt ${i}`).toBe(401);
    }
    clock.advance(60_000);
    const refused = await attempt('real@clinic.test', 'secret-pass', '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: 'too_many_requests', message: expect.any(String) });
    // The window opened at the first attempt; 14 minutes of it remain.
    expect(refused.headers['retry-after']).toBe(String(14 * 60));
    expect(refused.body).not.toContain('token');

    // Another IP is not affected.
    expect((await attempt('real@clinic.test', 'secret-pass', '203.0.113.8')).statusCode).toBe(200);

    clock.advance(14 * 60 * 1000 - 1);
    expect((await attempt('real@clinic.test', 'secret-pass', '203.0.113.7')).statusCode).toBe(429);
    clock.advance(1);
    expect((await attempt('real@clinic.test', 'secret-pass', '203.0.113.7')).statusCode).toBe(200);
  });

  it('locks one email from one address for 15 minutes after 10 failures there; the owner elsewhere still logs in', async () => {
    expect(LOGIN_LOCKOUT).toMatchObject({ failuresPerPair: 10, withinMs: FIFTEEN_MINUTES, lockMs: FIFTEEN_MINUTES });
    await buildCustomer(t.db, { email: 'target@clinic.test', password: 'secret-pass' });
    await buildVet(t.db, { email: 'bystander@clinic.test', password: 'secret-pass' });
    for (let i = 1; i <= 10; i++) {
      clock.advance(60_000);
      const response = await attempt('TARGET@clinic.test', `guess-${i}`, '198.51.100.1');
      expect(response.statusCode, `attempt ${i}`).toBe(401);
    }
    // Locked there for 15 minutes from the tenth failure, even with the right password…
    const locked = await attempt('target@clinic.test', 'secret-pass', '198.51.100.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error).toBe('too_many_requests');
    expect(Number(locked.headers['retry-after'])).toBe(FIFTEEN_MINUTES / 1000);
    expect(locked.body).not.toContain('token');

    // …but the owner at their own address is not locked out, and other accounts from that address are fine.
    expect((await attempt('target@clinic.test', 'secret-pass', '203.0.113.5')).statusCode).toBe(200);
    expect((await attempt('bystander@clinic.test', 'secret-pass', '198.51.100.1')).statusCode).toBe(200);

    clock.advance(FIFTEEN_MINUTES - 1);
    expect((await attempt('target@clinic.test', 'secret-pass', '198.51.100.1')).statusCode).toBe(429);
    clock.advance(1);
    const unlocked = await attempt('target@clinic.test', 'secret-pass', '198.51.100.1');
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.json().type).toBe('customer');
  });

  it('starts the count of an address again after a successful login there', async () => {
    await buildCustomer(t.db, { email: 'typo@clinic.test', password: 'secret-pass' });
    for (let round = 1; round <= 3; round++) {
      for (let i = 1; i <= 9; i++) {
        expect((await attempt('typo@clinic.test', `typo-${i}`, '192.0.2.50')).statusCode, `round ${round}`).toBe(401);
      }
      expect((await attempt('typo@clinic.test', 'secret-pass', '192.0.2.50')).statusCode, `round ${round}`).toBe(200);
    }
  });

  it('slows an account guessed at from many addresses, never refusing an address it has logged in from', async () => {
    const { slowAfterAccountFailures, slowIntervalMs } = LOGIN_LOCKOUT;
    await buildCustomer(t.db, { email: 'famous@clinic.test', password: 'secret-pass' });
    // The owner logs in from home first.
    expect((await attempt('famous@clinic.test', 'secret-pass', '192.0.2.10')).statusCode).toBe(200);
    // A botnet: each address fails a few times, below its own lock.
    for (let i = 0; i < slowAfterAccountFailures; i++) {
      const response = await attempt('famous@clinic.test', `guess-${i}`, `198.51.100.${(i % 7) + 1}`);
      expect(response.statusCode, `failure ${i + 1}`).toBe(401);
    }
    // Now one attempt per interval from any address the account has not logged in from…
    expect((await attempt('famous@clinic.test', 'guess-x', '198.51.100.99')).statusCode).toBe(401);
    const slowed = await attempt('famous@clinic.test', 'guess-y', '198.51.100.98');
    expect(slowed.statusCode).toBe(429);
    expect(Number(slowed.headers['retry-after'])).toBe(slowIntervalMs / 1000);
    expect(Number(slowed.headers['retry-after'])).toBeLessThanOrEqual(60);
    // …while the owner at home is never refused, however busy the guessers.
    for (let i = 0; i < 3; i++) {
      expect((await attempt('famous@clinic.test', 'secret-pass', '192.0.2.10')).statusCode).toBe(200);
    }
    // And the slow-down is a short wait, not a lock: after it, a new address with the password gets in.
    clock.advance(slowIntervalMs);
    expect((await attempt('famous@clinic.test', 'secret-pass', '203.0.113.77')).statusCode).toBe(200);
  });

  it('does not count successful logins against the email', async () => {
    await buildCustomer(t.db, { email: 'busy@clinic.test', password: 'secret-pass' });
    for (let i = 1; i <= 11; i++) {
      const response = await attempt('busy@clinic.test', 'secret-pass', `192.0.2.${i}`);
      expect(response.statusCode, `login ${i}`).toBe(200);
    }
  });
});
