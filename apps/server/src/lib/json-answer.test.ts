import { gunzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../clock.ts';
import { buildCustomer, buildHold, buildVet } from '../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../test/build-test-app.ts';
import { weekdays } from '../../test/day-schedules.ts';

const PASSWORD = 'secret-pass';
/** Monday 12 January 2026, 08:00 in Lisbon. */
const NOW = '2026-01-12T08:00:00Z';
/** A week of 15-minute slots: about 5 KB of JSON, so kept gzipped too. */
const WEEK = 'from=2026-01-12&to=2026-01-18';

describe('kept answers go out gzipped to clients that take gzip', () => {
  let t: TestApp;
  let customer: Record<string, string>;
  let vet: Awaited<ReturnType<typeof buildVet>>;
  let ana: Awaited<ReturnType<typeof buildCustomer>>;
  const week = () => `/api/vets/${vet.vet.id}/slots?${WEEK}`;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...customer, ...headers } });

  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    ana = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD });
    vet = await buildVet(t.db, {
      email: 'rui@clinic.test',
      password: PASSWORD,
      profile: {
        timezone: 'Europe/Lisbon',
        durationMinutes: 15,
        availabilityStep: 15,
        daySchedules: weekdays('09:00', '17:00'),
      },
    });
    customer = (await t.loginAs('ana@clinic.test', PASSWORD)).headers;
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers a large read gzipped when asked, the same JSON as plain, and says it varies', async () => {
    const plain = await get(week());
    const zipped = await get(week(), { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.body.length).toBeGreaterThan(1024);

    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('accept-encoding');
    expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
  });

  it('sends plain JSON to a client that refuses gzip or names only other codings', async () => {
    for (const accept of ['gzip;q=0', 'br, zstd', 'identity']) {
      const response = await get(week(), { 'accept-encoding': accept });
      expect(response.headers['content-encoding'], accept).toBeUndefined();
      expect(response.json<unknown[]>().length, accept).toBeGreaterThan(0);
    }
  });

  it('leaves small answers plain: no gzip, no Vary', async () => {
    const response = await get('/api/me', { 'accept-encoding': 'gzip' });
    const products = await get('/api/products/en', { 'accept-encoding': 'gzip' });
    for (const answer of [response, products]) {
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers.vary).toBeUndefined();
    }
  });

  it('follows a change in the gzipped form as in the plain one', async () => {
    const before = gunzipSync((await get(week(), { 'accept-encoding': 'gzip' })).rawPayload).toString();
    await buildHold(t.db, {
      vetUserId: vet.user.id,
      customerUserId: ana.user.id,
      startsAt: '2026-01-13T10:00:00Z',
      durationMinutes: 15,
      expiresAt: '2026-01-20T00:00:00Z',
    });
    const after = gunzipSync((await get(week(), { 'accept-encoding': 'gzip' })).rawPayload).toString();
    const starts = (text: string) => (JSON.parse(text) as Array<{ start: string }>).map((slot) => slot.start);
    expect(starts(before)).toContain('2026-01-13T10:00:00.000Z');
    expect(starts(after)).not.toContain('2026-01-13T10:00:00.000Z');
    expect(after).toBe((await get(week())).body);
  });
});
