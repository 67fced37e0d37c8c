import { createHash } from 'node:crypto';
import http from 'node:http';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager } from '../../demo-data/factories.ts';
import { sessions, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { purgeExpiredCredentials } from './auth.service.ts';
import { bearerToken } from './authentication.ts';
import { hashToken } from '../../lib/tokens.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe('session endpoints: GET /api/me and POST /api/logout', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  const endpoints = [
    ['GET', '/api/me'],
    ['POST', '/api/logout'],
  ] as const;

  const badHeaders: [string, Record<string, string>][] = [
    ['no authorization header', {}],
    ['an empty header', { authorization: '' }],
    ['a scheme without a token', { authorization: 'Bearer' }],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a token without a scheme', { authorization: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ' }],
    ['an unknown token', { authorization: 'Bearer abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ' }],
  ];

  for (const [method, url] of endpoints) {
    it.each(badHeaders)(`${method} ${url} answers 401 unauthorized for %s`, async (_label, headers) => {
      const response = await t.app.inject({ method, url, headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    });
  }

  it('GET /api/me answers the session user, without secrets', async () => {
    const { user } = await buildManager(t.db, {
      email: 'boss@clinic.test',
      password: 'secret-pass',
      name: 'Marta',
      locale: 'en',
    });
    const { headers } = await t.loginAs('boss@clinic.test', 'secret-pass');
    const response = await t.app.inject({ method: 'GET', url: '/api/me', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user_id: user.id,
      type: 'manager',
      name: 'Marta',
      email: 'boss@clinic.test',
      locale: 'en',
    });
    // The scheme is case-insensitive.
    const lower = await t.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: headers.authorization.replace('Bearer', 'bearer') },
    });
    expect(lower.statusCode).toBe(200);
  });

  it('POST /api/logout revokes only the presented token', async () => {
    await buildCustomer(t.db, { email: 'ana@clinic.test', password: 'secret-pass' });
    const first = await t.loginAs('ana@clinic.test', 'secret-pass');
    const second = await t.loginAs('ana@clinic.test', 'secret-pass');
    expect(first.token).not.toBe(second.token);

    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: first.headers });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ ok: true });

    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: first.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: first.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: second.headers })).statusCode).toBe(200);
  });

  it('ends the sessions of a user who is deactivated', async () => {
    const { user } = await buildCustomer(t.db, { email: 'leaving@clinic.test', password: 'secret-pass' });
    const { headers } = await t.loginAs('leaving@clinic.test', 'secret-pass');
    await t.db.update(users).set({ active: false }).where(eq(users.id, user.id));
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers })).statusCode).toBe(401);
  });

  it('reads the token of "Bearer <token>" only, the scheme in any case', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('BEARER abc')).toBe('abc');
    // What follows the token is not part of it.
    expect(bearerToken('Bearer abc def')).toBe('abc');
    for (const header of ['Bearer', 'Bearer ', 'Bearer  abc', 'Bearerabc', 'Basic abc', 'xBearer abc', 'Bearer\tabc']) {
      expect(bearerToken(header), header).toBeUndefined();
    }
  });

  it('answers each request of a kept-alive connection for the token it carries, and a revoked one at once', async () => {
    await buildCustomer(t.db, { email: 'first@clinic.test', password: 'secret-pass', name: 'First' });
    await buildCustomer(t.db, { email: 'second@clinic.test', password: 'secret-pass', name: 'Second' });
    const first = await t.loginAs('first@clinic.test', 'secret-pass');
    const second = await t.loginAs('second@clinic.test', 'secret-pass');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as { port: number };
    // One socket for every request: the connection the token's hash is kept beside.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = (path: string, authorization?: string, method = 'GET') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port, path, method, agent, headers: authorization ? { authorization } : {} },
          (response) => {
            let body = '';
            response.on('data', (chunk: Buffer) => (body += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
          },
        );
        request.on('socket', (socket) => sockets.add(socket));
        request.on('error', reject);
        request.end();
      });
    try {
      const name = async (authorization?: string) => {
        const answer = await get('/api/me', authorization);
        return answer.status === 200 ? (JSON.parse(answer.body) as { name: string }).name : answer.status;
      };
      expect(await name(first.headers.authorization)).toBe('First');
      expect(await name(first.headers.authorization)).toBe('First');
      expect(await name(second.headers.authorization)).toBe('Second');
      expect(await name(first.headers.authorization)).toBe('First');
      expect(await name(undefined)).toBe(401);
      expect(await name('Bearer not-a-session-token-at-all')).toBe(401);
      expect(await name(first.headers.authorization)).toBe('First');
      expect((await get('/api/logout', first.headers.authorization, 'POST')).status).toBe(200);
      expect(await name(first.headers.authorization)).toBe(401);
      expect(await name(second.headers.authorization)).toBe('Second');
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('stores only the SHA-256 of the token, never the token itself', async () => {
    const { user } = await buildCustomer(t.db, { email: 'hash@clinic.test', password: 'secret-pass' });
    const { token } = await t.loginAs('hash@clinic.test', 'secret-pass');
    const rows = await t.db.select().from(sessions);
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.userId).toBe(user.id);
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    // Nor any recognisable slice of it.
    expect(stored).not.toContain(token.slice(0, 16));
  });
});

describe('session lifetime', () => {
  const start = new Date('2030-01-10T08:00:00.000Z');
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(start);
    t = await buildTestApp({ clock });
    await buildCustomer(t.db, { email: 'ana@clinic.test', password: 'secret-pass' });
  });
  afterEach(async () => {
    await t.close();
  });

  const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/me', headers });

  it('ends a session left unused for more than 24 hours', async () => {
    const used = await t.loginAs('ana@clinic.test', 'secret-pass');
    const idle = await t.loginAs('ana@clinic.test', 'secret-pass');

    clock.advance(DAY);
    // Exactly 24 hours idle is still within the limit; this use renews `used`.
    expect((await me(used.headers)).statusCode).toBe(200);

    clock.advance(1);
    const expired = await me(idle.headers);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error).toBe('unauthorized');
    expect((await me(used.headers)).statusCode).toBe(200);

    // Expiry is final: going idle again does not bring it back, and logout with it is refused.
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: idle.headers })).statusCode).toBe(401);
  });

  it('keeps a session used every 23 hours alive until 30 days after login, and no longer', async () => {
    const { headers } = await t.loginAs('ana@clinic.test', 'secret-pass');
    for (let day = 1; day <= 31; day++) {
      clock.advance(23 * HOUR);
      expect((await me(headers)).statusCode, `use ${day}`).toBe(200);
    }
    // 713 hours in; the absolute limit is 720 hours after login.
    clock.set(new Date(start.getTime() + 30 * DAY - 1));
    expect((await me(headers)).statusCode).toBe(200);
    clock.advance(1);
    expect((await me(headers)).statusCode).toBe(401);
    // A new login starts a new 30 days.
    const fresh = await t.loginAs('ana@clinic.test', 'secret-pass');
    expect((await me(fresh.headers)).statusCode).toBe(200);
  });

  it('purges idle and revoked sessions and keeps live ones', async () => {
    await t.loginAs('ana@clinic.test', 'secret-pass');
    const revoked = await t.loginAs('ana@clinic.test', 'secret-pass');
    await t.app.inject({ method: 'POST', url: '/api/logout', headers: revoked.headers });
    clock.advance(DAY + 1);
    const live = await t.loginAs('ana@clinic.test', 'secret-pass');
    await purgeExpiredCredentials(t.context);
    const remaining = await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(remaining.map((row) => row.tokenHash)).toEqual([hashToken(live.token)]);
    expect((await me(live.headers)).statusCode).toBe(200);
  });

  it('is purged by the job worker’s hourly task, not by each instance', async () => {
    await t.loginAs('ana@clinic.test', 'secret-pass');
    clock.advance(DAY + 1);
    const live = await t.loginAs('ana@clinic.test', 'secret-pass');
    await t.context.jobs.tick();
    await t.context.jobs.drain();
    const remaining = await t.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(remaining.map((row) => row.tokenHash)).toEqual([hashToken(live.token)]);
  });
});
