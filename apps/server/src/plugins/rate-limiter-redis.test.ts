import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { buildApp } from '../app.ts';
import { createContext } from '../create-context.ts';
import { buildCustomer } from '../demo-data/factories.ts';
import { LOGIN_LOCKOUT, RATE_LIMITS } from '../modules/auth/session-policy.ts';
import { createMemoryRateLimiter, createRedisRateLimiter, type RateLimiter } from './rate-limiter.ts';

/** Limits shared through Redis (TEST_REDIS_URL, e.g. redis://127.0.0.1:6379); each test has its own prefix. */
const redisUrl = process.env.TEST_REDIS_URL;
const RULE = { limit: 3, windowMs: 60_000 };

describe.skipIf(!redisUrl)('rate limits shared through Redis', () => {
  let prefix: string;
  const limiters: RateLimiter[] = [];
  const instance = async (url = redisUrl!) => {
    const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 500 });
    redis.on('error', () => undefined);
    // Until connected, the fallback would decide (and this test is about Redis deciding).
    if (url === redisUrl) await new Promise((resolve) => redis.once('ready', resolve));
    const limiter = createRedisRateLimiter(redis, {
      keyPrefix: prefix,
      fallback: createMemoryRateLimiter(fixedClock('2026-03-10T10:00:00Z')),
    });
    limiters.push(limiter);
    return limiter;
  };

  beforeEach(() => {
    prefix = `vetcall-test:${randomBytes(6).toString('hex')}:`;
  });
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((limiter) => limiter.close()));
  });

  it('counts hits on one instance against the limit on another', async () => {
    const [a, b] = [await instance(), await instance()];
    expect((await a.hit('login:ip:1', RULE)).allowed).toBe(true);
    expect((await b.hit('login:ip:1', RULE)).allowed).toBe(true);
    expect((await a.hit('login:ip:1', RULE)).allowed).toBe(true);
    const refused = await b.hit('login:ip:1', RULE);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect((await a.check('login:ip:1', RULE)).allowed).toBe(false);
    // Another key, another counter.
    expect((await b.check('login:ip:2', RULE)).allowed).toBe(true);
  });

  it('checks without counting', async () => {
    const [a, b] = [await instance(), await instance()];
    for (let i = 0; i < 5; i++) expect((await b.check('pin:ip:1', RULE)).allowed).toBe(true);
    await a.hit('pin:ip:1', RULE);
    await a.hit('pin:ip:1', RULE);
    expect((await b.check('pin:ip:1', RULE)).allowed).toBe(true);
    await a.hit('pin:ip:1', RULE);
    expect((await b.check('pin:ip:1', RULE)).allowed).toBe(false);
  });

  it('forgets a key on reset, for every instance', async () => {
    const [a, b] = [await instance(), await instance()];
    for (let i = 0; i < RULE.limit; i++) await a.hit('login:failures:x', RULE);
    expect((await b.check('login:failures:x', RULE)).allowed).toBe(false);
    await b.reset('login:failures:x');
    expect((await a.check('login:failures:x', RULE)).allowed).toBe(true);
  });

  it('falls back to counting in this instance while Redis cannot be reached', async () => {
    const unreachable = await instance('redis://127.0.0.1:1');
    for (let i = 0; i < RULE.limit; i++) expect((await unreachable.hit('reset:ip:1', RULE)).allowed).toBe(true);
    expect((await unreachable.hit('reset:ip:1', RULE)).allowed).toBe(false);
  });
});

describe.skipIf(!redisUrl)('a limit counted on instance A holds on instance B', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildApp>>;

  beforeEach(async () => {
    const prefix = `vetcall-test:${randomBytes(6).toString('hex')}:`;
    a = await buildTestApp({ env: { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: prefix } });
    b = await buildApp(createContext(a.config, a.context.database, { mailer: a.context.mailer }));
  });
  afterEach(async () => {
    await b.close();
    await a.close();
  });

  it('locks on B an email and address that failed 10 times through A; the owner elsewhere logs in on B', async () => {
    await buildCustomer(a.db, { email: 'target@clinic.test', password: 'secret-pass' });
    const login = (app: typeof b, password: string, ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email: 'target@clinic.test', password },
        remoteAddress: ip,
      });
    for (let i = 0; i < LOGIN_LOCKOUT.failuresPerPair; i++) {
      expect((await login(a.app, `guess-${i}`, '198.51.100.1')).statusCode).toBe(401);
    }
    const locked = await login(b, 'secret-pass', '198.51.100.1');
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(LOGIN_LOCKOUT.lockMs / 1000 - 60);
    expect((await login(b, 'secret-pass', '203.0.113.5')).statusCode).toBe(200);
  });

  it('refuses on B the password-reset links already sent through A', async () => {
    const { limit } = RATE_LIMITS.resetPerEmail;
    const send = (app: typeof b, ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/login/sendpasswordresetemail/en',
        payload: { email: 'someone@clinic.test' },
        remoteAddress: ip,
      });
    for (let i = 0; i < limit; i++) expect((await send(a.app, `203.0.113.${i}`)).statusCode).toBe(200);
    const refused = await send(b, '203.0.113.100');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
