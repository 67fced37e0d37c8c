import { createHash } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestLogFields } from '../../app.ts';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildManager, buildPet, buildVet } from '../../demo-data/factories.ts';
import { users, vets } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { ICS_FEED_LOOKUP_FAILURES_PER_IP } from './ics-feed.service.ts';
import { transitionAppointment } from '../../db/appointment-transition.ts';

const PASSWORD = 'secret-pass';
const NOW = '2026-11-20T12:00:00.000Z';
const DAY_MS = 24 * 60 * 60 * 1000;
const daysFromNow = (days: number) => new Date(Date.parse(NOW) + days * DAY_MS);

type Role = 'vet' | 'otherVet' | 'manager' | 'customer' | 'anonymous';
type Headers = Record<string, string>;

const errorBody = (error: string) => ({ error, message: expect.any(String) });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A manager (Marta), two vets (Sara first, then Rui, so Rui's user id and vet id differ) and a customer
 * (Ana) with a pet (Bolinha).
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta' });
  const otherVet = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const vet = await buildVet(t.db, {
    email: 'vet.rui@clinic.test',
    password: PASSWORD,
    name: 'Rui Gonçalves',
    locale: 'en',
  });
  const customer = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Silva, Ana' });
  const pet = await buildPet(t.db, customer.customer.id, { name: 'Bolinha' });
  const headers: Record<Role, Headers> = {
    vet: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    otherVet: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    customer: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, otherVet, vet, customer, pet, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** The path of a feed URL the API handed out, for `inject`. */
const pathOf = (url: string) => new URL(url).pathname;

/** Parses a served feed with ical.js, an independent iCalendar implementation. */
function parseFeed(body: string) {
  const calendar = new ICAL.Component(ICAL.parse(body));
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      description: event.description,
      status: vevent.getFirstPropertyValue('status'),
      sequence: Number(vevent.getFirstPropertyValue('sequence')),
      dtstamp: (vevent.getFirstPropertyValue('dtstamp') as ICAL.Time).toJSDate().toISOString(),
    };
  });
  return { calendar, events };
}

describe('ICS feed management: /api/vets/icsfeed/{vet_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const expectedByRole: [Role, number][] = [
    ['anonymous', 401],
    ['customer', 403],
    ['manager', 403],
    ['otherVet', 403],
    ['vet', 200],
  ];
  const errorOf = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' } as const;
  const storedVets = () => t.db.select().from(vets).orderBy(asc(vets.id));

  it.each(expectedByRole)('GET of Rui’s feed status as %s answers %i', async (role, status) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toStrictEqual({ enabled: false });
    else expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
  });

  it.each(expectedByRole)('POST of Rui’s feed as %s answers %i', async (role, status) => {
    const before = await storedVets();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      const { url } = response.json<{ url: string }>();
      expect(url).toMatch(/^http:\/\/vetcall\.test\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
      expect(response.headers['cache-control']).toBe('no-store');
    } else {
      expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
      expect(await storedVets()).toEqual(before);
    }
  });

  it.each(expectedByRole)('DELETE of Rui’s feed as %s answers %i', async (role, status) => {
    await t.app.inject({ method: 'POST', url: `/api/vets/icsfeed/${w.vet.vet.id}`, headers: w.headers.vet });
    const before = await storedVets();
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toStrictEqual({ enabled: false });
    else {
      expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
      expect(await storedVets()).toEqual(before);
    }
  });

  it.each(['GET', 'POST', 'DELETE'] as const)('%s answers 404 to a vet for an id that is no vet’s', async (method) => {
    for (const id of [9999, 2_147_483_647]) {
      const response = await t.app.inject({ method, url: `/api/vets/icsfeed/${id}`, headers: w.headers.vet });
      expect(response.statusCode, String(id)).toBe(404);
      expect(response.json()).toEqual(errorBody('not_found'));
    }
  });

  it('answers 400 for an id that is not a positive integer', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/vets/icsfeed/abc', headers: w.headers.vet });
    expect(response.statusCode).toBe(400);
  });

  it('stores only the SHA-256 of the secret, and the status says the feed is on', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    const token = /\/feed\/([^/]+)\.ics$/.exec(response.json<{ url: string }>().url)![1]!;
    const [row] = await t.db.select().from(vets).where(eq(vets.userId, w.vet.user.id));
    expect(row!.icsTokenHash).toBe(sha256(token));
    const [other] = await t.db.select().from(vets).where(eq(vets.userId, w.otherVet.user.id));
    expect(other!.icsTokenHash).toBeNull();

    const status = await t.app.inject({
      method: 'GET',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    expect(status.json()).toStrictEqual({ enabled: true });
  });

  it('regenerating gives a new URL and the old one stops working at once', async () => {
    const post = () =>
      t.app.inject({ method: 'POST', url: `/api/vets/icsfeed/${w.vet.vet.id}`, headers: w.headers.vet });
    const first = (await post()).json<{ url: string }>().url;
    expect((await t.app.inject({ method: 'GET', url: pathOf(first) })).statusCode).toBe(200);

    const second = (await post()).json<{ url: string }>().url;
    expect(second).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: pathOf(first) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: pathOf(second) })).statusCode).toBe(200);
  });

  it('deleting turns the feed off: the URL answers 404 and the status says so; deleting again is harmless', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    const feedPath = pathOf(created.json<{ url: string }>().url);
    for (let attempt = 0; attempt < 2; attempt++) {
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/vets/icsfeed/${w.vet.vet.id}`,
        headers: w.headers.vet,
      });
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toStrictEqual({ enabled: false });
    }
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    expect(status.json()).toStrictEqual({ enabled: false });
  });

  it('each vet has their own feed: Sara’s URL does not show Rui’s bookings, and Sara cannot touch Rui’s', async () => {
    const sara = await t.app.inject({
      method: 'POST',
      url: `/api/vets/icsfeed/${w.otherVet.vet.id}`,
      headers: w.headers.otherVet,
    });
    expect(sara.statusCode).toBe(200);
    await buildAppointment(t.db, {
      customerUserId: w.customer.user.id,
      petId: w.pet.id,
      vetUserId: w.vet.user.id,
    });
    const feed = await t.app.inject({ method: 'GET', url: pathOf(sara.json<{ url: string }>().url) });
    expect(feed.statusCode).toBe(200);
    expect(parseFeed(feed.body).events).toEqual([]);
    expect(parseFeed(feed.body).calendar.getFirstPropertyValue('x-wr-calname')).toBe('VetCall – Sara');
  });
});

describe('the feed: GET /api/calendar/feed/{token}.ics', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  let feedPath: string;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/vets/icsfeed/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    feedPath = pathOf(created.json<{ url: string }>().url);
  });
  afterEach(async () => {
    await t.close();
  });

  const rui = () => ({ customerUserId: w.customer.user.id, petId: w.pet.id, vetUserId: w.vet.user.id });

  it('serves an empty calendar with the feed headers and calendar properties', async () => {
    const response = await t.app.inject({ method: 'GET', url: feedPath });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.headers['cache-control']).toBe('private, max-age=300');
    expect(response.headers['content-disposition']).toBe('inline; filename="vetcall.ics"');
    expect(response.body.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(response.body.endsWith('END:VCALENDAR\r\n')).toBe(true);

    const { calendar, events } = parseFeed(response.body);
    expect(events).toEqual([]);
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//VetCall//Appointments//EN');
    expect(calendar.getFirstPropertyValue('calscale')).toBe('GREGORIAN');
    expect(calendar.getFirstPropertyValue('method')).toBe('PUBLISH');
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('VetCall – Rui Gonçalves');
    expect(calendar.getFirstPropertyValue('x-published-ttl')).toBe('PT15M');
    expect(String(calendar.getFirstPropertyValue('refresh-interval'))).toBe('PT15M');
  });

  it('lists only the vet’s confirmed and completed bookings of the last 90 days and the future', async () => {
    const statusDate = new Date('2026-11-10T09:15:00Z');
    const confirmed = await buildAppointment(t.db, rui(), {
      schedule: new Date('2026-12-01T10:00:00Z'),
      durationMinutes: 45,
      status: 'TK_Confirmed',
      statusDate,
      description: 'Limping; left hind leg, since\nyesterday 🐶',
    });
    const completed = await buildAppointment(t.db, rui(), {
      schedule: new Date('2026-10-01T08:30:00Z'),
      status: 'TK_Completed',
      statusDate,
    });
    const exactlyNinetyDaysAgo = await buildAppointment(t.db, rui(), {
      schedule: daysFromNow(-90),
      status: 'TK_Completed',
      statusDate,
    });
    // Left out: older than 90 days, not booked (yet or any more), or another vet's.
    await buildAppointment(t.db, rui(), {
      schedule: new Date(daysFromNow(-90).getTime() - 60_000),
      status: 'TK_Completed',
    });
    for (const status of ['TK_PendingPayment', 'TK_PaymentFailed', 'TK_Requested', 'TK_Canceled'] as const) {
      await buildAppointment(t.db, rui(), { schedule: new Date('2026-12-02T10:00:00Z'), status });
    }
    await buildAppointment(t.db, { ...rui(), vetUserId: w.otherVet.user.id }, { status: 'TK_Confirmed' });

    const response = await t.app.inject({ method: 'GET', url: feedPath });
    expect(response.statusCode).toBe(200);
    const { events } = parseFeed(response.body);
    expect(events.map((event) => event.uid)).toEqual(
      [exactlyNinetyDaysAgo, completed, confirmed].map(({ id }) => `appointment-${id}@vetcall.test`),
    );
    expect(events.map((event) => event.start)).toEqual([
      daysFromNow(-90).toISOString(),
      '2026-10-01T08:30:00.000Z',
      '2026-12-01T10:00:00.000Z',
    ]);
    expect(events[2]).toEqual({
      uid: `appointment-${confirmed.id}@vetcall.test`,
      start: '2026-12-01T10:00:00.000Z',
      end: '2026-12-01T10:45:00.000Z',
      summary: 'Video consultation: Bolinha (Silva, Ana)',
      description: 'Limping; left hind leg, since\nyesterday 🐶',
      status: 'CONFIRMED',
      sequence: expect.any(Number),
      dtstamp: statusDate.toISOString(),
    });
    expect(events.every((event) => event.summary === 'Video consultation: Bolinha (Silva, Ana)')).toBe(true);
    expect(events.every((event) => event.status === 'CONFIRMED')).toBe(true);
  });

  it('writes the calendar name and summaries in the vet’s language', async () => {
    await t.db.update(users).set({ locale: 'pt-BR' }).where(eq(users.id, w.vet.user.id));
    await buildAppointment(t.db, rui(), { schedule: new Date('2026-12-01T10:00:00Z'), status: 'TK_Confirmed' });
    const response = await t.app.inject({ method: 'GET', url: feedPath });
    const { events } = parseFeed(response.body);
    expect(events.map((event) => event.summary)).toEqual(['Teleconsulta: Bolinha (Silva, Ana)']);
  });

  it('never shows the appointment hash (it names the video room) nor the vet’s observations', async () => {
    const appointment = await buildAppointment(t.db, rui(), { vetObservations: 'Suspect hip dysplasia.' });
    const response = await t.app.inject({ method: 'GET', url: feedPath });
    expect(parseFeed(response.body).events).toHaveLength(1);
    expect(response.body).not.toContain(appointment.hash);
    expect(response.body).not.toContain('dysplasia');
  });

  it('keeps the UID and raises SEQUENCE, DTSTAMP and LAST-MODIFIED when the status changes', async () => {
    const appointment = await buildAppointment(t.db, rui(), {
      schedule: new Date('2026-11-20T10:00:00Z'),
      status: 'TK_Confirmed',
      statusDate: new Date('2026-11-15T10:00:00Z'),
    });
    const before = parseFeed((await t.app.inject({ method: 'GET', url: feedPath })).body).events[0]!;

    // As the server changes a status: through the one transition function, which raises the SEQUENCE by one.
    await transitionAppointment(t.db, appointment.id, 'TK_Completed', new Date('2026-11-20T10:30:01Z'), null);
    const after = parseFeed((await t.app.inject({ method: 'GET', url: feedPath })).body).events[0]!;

    expect(after.uid).toBe(before.uid);
    expect(after.sequence).toBe(before.sequence + 1);
    expect(after.dtstamp).toBe('2026-11-20T10:30:01.000Z');
  });

  it('lets a booking fall out of the feed 90 days after it started (the clock moves)', async () => {
    await buildAppointment(t.db, rui(), { schedule: new Date('2026-11-01T10:00:00Z'), status: 'TK_Completed' });
    const count = async () => parseFeed((await t.app.inject({ method: 'GET', url: feedPath })).body).events.length;
    expect(await count()).toBe(1);
    clock.set('2027-01-30T10:00:00Z');
    expect(await count()).toBe(1);
    clock.advance(1);
    expect(await count()).toBe(0);
  });

  it('answers 404 for unknown, malformed and empty tokens, and for a removed vet’s feed', async () => {
    const unknown = `/api/calendar/feed/${'A'.repeat(43)}.ics`;
    for (const url of [unknown, '/api/calendar/feed/short.ics', '/api/calendar/feed/.ics', `${feedPath}x`]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual(errorBody('not_found'));
    }
    await t.db.update(users).set({ active: false }).where(eq(users.id, w.vet.user.id));
    expect((await t.app.inject({ method: 'GET', url: feedPath })).statusCode).toBe(404);
  });

  it('refuses an IP with 429 after 20 failed lookups in 10 minutes, until the window ends', async () => {
    const ip = { remoteAddress: '203.0.113.7' };
    const guess = (n: number) => `/api/calendar/feed/${String(n).padStart(43, 'g')}.ics`;
    expect(ICS_FEED_LOOKUP_FAILURES_PER_IP).toEqual({ limit: 20, windowMs: 10 * 60 * 1000 });
    for (let n = 0; n < 20; n++) {
      expect((await t.app.inject({ method: 'GET', url: guess(n), ...ip })).statusCode).toBe(404);
    }
    const refused = await t.app.inject({ method: 'GET', url: guess(20), ...ip });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual(errorBody('too_many_requests'));
    expect(refused.headers['retry-after']).toBe('600');
    // Even the right URL is refused from that address: otherwise a 200 would still tell a good guess.
    expect((await t.app.inject({ method: 'GET', url: feedPath, ...ip })).statusCode).toBe(429);
    // Other addresses are not affected.
    expect((await t.app.inject({ method: 'GET', url: feedPath, remoteAddress: '198.51.100.1' })).statusCode).toBe(200);

    clock.advance(9 * 60 * 1000);
    const later = await t.app.inject({ method: 'GET', url: feedPath, ...ip });
    expect(later.statusCode).toBe(429);
    expect(later.headers['retry-after']).toBe('60');
    clock.advance(60 * 1000);
    expect((await t.app.inject({ method: 'GET', url: feedPath, ...ip })).statusCode).toBe(200);
  });

  it('does not count successful fetches: calendar services poll often from shared addresses', async () => {
    for (let n = 0; n < 30; n++) {
      expect((await t.app.inject({ method: 'GET', url: feedPath, remoteAddress: '192.0.2.10' })).statusCode).toBe(200);
    }
  });
});

describe('request logs never carry a feed secret', () => {
  const token = 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5';
  it.each([
    [`/api/calendar/feed/${token}.ics`, '/api/calendar/feed/[redacted]'],
    [`/api/calendar/feed/${token}.ics?x=1`, '/api/calendar/feed/[redacted]'],
    [`/api/calendar/feed/${token}.ics/`, '/api/calendar/feed/[redacted]'],
    [`/api/calendar/feed/${token}`, '/api/calendar/feed/[redacted]'],
    // The router decodes %XX before matching, so these reach the feed too.
    [`/api/%63alendar/feed/${token}.ics`, '/api/calendar/feed/[redacted]'],
    [`/api/calendar/%66eed/${token}.ics`, '/api/calendar/feed/[redacted]'],
    [`/API/Calendar/Feed/${token}.ics`, '/API/Calendar/Feed/[redacted]'],
    ['/api/vets/icsfeed/12', '/api/vets/icsfeed/12'],
    ['/api/login/updatepassword?token=secret', '/api/login/updatepassword'],
  ])('logs %s as %s', (url, logged) => {
    const fields = requestLogFields({ method: 'GET', url, ip: '203.0.113.7' });
    expect(fields).toEqual({ method: 'GET', url: logged, remoteAddress: '203.0.113.7' });
    expect(JSON.stringify(fields)).not.toContain(token);
  });

  it('redacts the URL the API hands out', async () => {
    const t = await buildTestApp();
    try {
      const rui = await buildVet(t.db, { email: 'vet.rui@clinic.test', password: PASSWORD });
      const { headers } = await t.loginAs('vet.rui@clinic.test', PASSWORD);
      const created = await t.app.inject({ method: 'POST', url: `/api/vets/icsfeed/${rui.vet.id}`, headers });
      const url = created.json<{ url: string }>().url;
      expect(requestLogFields({ method: 'GET', url: pathOf(url) }).url).toBe('/api/calendar/feed/[redacted]');
    } finally {
      await t.close();
    }
  });
});
