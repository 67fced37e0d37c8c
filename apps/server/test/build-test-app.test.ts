import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { buildCustomer } from '../src/demo-data/factories.ts';
import { users } from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './build-test-app.ts';

/**
 * The worker's kept app (build-test-app.ts): a test that reuses it must find what a new app would give it, and an
 * app a test spoilt must not reach the next one.
 */
describe('the test app kept from test to test', () => {
  const open: TestApp[] = [];
  const build = async (options: Parameters<typeof buildTestApp>[0] = {}) => {
    const t = await buildTestApp(options);
    open.push(t);
    return t;
  };
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('is reused with an emptied database, data directory, caches and rate limits', async () => {
    const first = await build();
    await buildCustomer(first.db, { email: 'left@behind.test', password: 'left-behind-pass' });
    await writeFile(path.join(first.config.dataDir, 'left-behind.txt'), 'x');
    const rule = { limit: 1, windowMs: 60_000 };
    expect((await first.context.limiter.hit('login:left', rule)).allowed).toBe(true);
    expect((await first.context.limiter.hit('login:left', rule)).allowed).toBe(false);
    const login = await first.loginAs('left@behind.test', 'left-behind-pass');
    expect((await first.app.inject({ method: 'GET', url: '/api/me', headers: login.headers })).statusCode).toBe(200);
    expect(first.context.caches.sessions.size).toBeGreaterThan(0);
    await first.close();
    open.length = 0;

    const second = await build();
    expect(second.app).toBe(first.app);
    expect(await second.db.select().from(users)).toEqual([]);
    expect(await readdir(second.config.dataDir)).not.toContain('left-behind.txt');
    expect(second.context.caches.sessions.size).toBe(0);
    expect((await second.context.limiter.hit('login:left', rule)).allowed).toBe(true);
    // The first test's session went with its database: its token is refused.
    expect((await second.app.inject({ method: 'GET', url: '/api/me', headers: login.headers })).statusCode).toBe(401);
  });

  it('runs on the clock of the test using it', async () => {
    const first = await build({ clock: fixedClock('2031-02-03T04:05:06Z') });
    expect(first.context.clock.now().toISOString()).toBe('2031-02-03T04:05:06.000Z');
    await first.close();
    open.length = 0;
    const second = await build();
    expect(second.app).toBe(first.app);
    expect(Math.abs(second.context.clock.now().getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('serves one test at a time: a second app asked for meanwhile is a new one', async () => {
    const first = await build();
    const second = await build();
    expect(second.app).not.toBe(first.app);
    await buildCustomer(second.db, { email: 'only@second.test' });
    expect(await first.db.select().from(users)).toEqual([]);
  });

  it('is not kept once a test listened with it, closed it or closed its database', async () => {
    const listened = await build();
    await listened.app.listen({ port: 0, host: '127.0.0.1' });
    await listened.close();
    open.length = 0;
    const afterListen = await build();
    expect(afterListen.app).not.toBe(listened.app);
    expect(afterListen.app.server.listening).toBe(false);

    await afterListen.app.close();
    await afterListen.close();
    open.length = 0;
    const afterClose = await build();
    expect(afterClose.app).not.toBe(afterListen.app);

    await afterClose.context.database.close();
    await afterClose.close();
    open.length = 0;
    const afterOutage = await build();
    expect(afterOutage.app).not.toBe(afterClose.app);
    expect((await afterOutage.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('gives an app of its own to a test with its own configuration', async () => {
    const plain = await build();
    await plain.close();
    open.length = 0;
    const configured = await build({ env: { INSURANCE_ENABLED: 'true' } });
    expect(configured.app).not.toBe(plain.app);
    expect(configured.config.insuranceEnabled).toBe(true);
  });
});
