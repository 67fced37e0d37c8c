import type { IncomingMessage, ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { calendarBusyRanges, vetCalendarLinks } from '../../db/schema.ts';
import { buildVet } from '../../demo-data/factories.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type FakeHttpServer, hang, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { BUSY_FRESH_MS, CALDAV_PASSWORD_PURPOSE, freshenBusyTimes, readBusyTimes } from './calendar-sync.service.ts';

const NOW = '2026-11-18T12:00:00Z';
const WINDOW = { from: new Date('2026-11-23T00:00:00Z'), to: new Date('2026-11-24T00:00:00Z') };

describe('freshenBusyTimes', () => {
  let caldav: FakeHttpServer;
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  let vetUserId: number;
  beforeAll(async () => {
    caldav = await startFakeHttpServer(hang);
  });
  afterAll(async () => {
    await caldav.close();
  });
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    const vet = await buildVet(t.db, { email: 'v@clinic.test', name: 'V' });
    vetUserId = vet.user.id;
    await t.db.insert(vetCalendarLinks).values({
      vetUserId,
      kind: 'caldav',
      url: `${caldav.baseUrl}/`,
      username: 'v',
      passwordSealed: t.context.secrets.seal(CALDAV_PASSWORD_PURPOSE, 'pw'),
      busyCalendars: [`${caldav.baseUrl}/v/cal/`],
      busyReadAt: new Date(NOW),
      busyReadFrom: new Date('2026-11-17T00:00:00Z'),
      busyReadTo: new Date('2027-01-01T00:00:00Z'),
    });
    await t.db.insert(calendarBusyRanges).values({
      vetUserId,
      startsAt: new Date('2026-11-23T10:00:00Z'),
      endsAt: new Date('2026-11-23T11:00:00Z'),
    });
  });
  afterEach(async () => {
    await t.close();
  });

  it('reads nothing while the busy times are fresh, and says when they turn stale', async () => {
    const started = Date.now();
    expect(await freshenBusyTimes(t.context, [vetUserId], WINDOW)).toBe(Date.parse(NOW) + BUSY_FRESH_MS);
    expect(Date.now() - started).toBeLessThan(500);
    expect(caldav.requests).toEqual([]);
  });

  it('waits only briefly for a calendar that does not answer, and keeps the last known busy times', async () => {
    clock.advance(BUSY_FRESH_MS + 1000);
    const started = Date.now();
    const validUntil = await freshenBusyTimes(t.context, [vetUserId], WINDOW, 300);
    expect(Date.now() - started).toBeLessThan(1500);
    // Asked again soon (30 s), not kept for 2 minutes.
    expect(validUntil).toBe(clock.now().getTime() + 30_000);
    expect(caldav.requests.length).toBeGreaterThan(0);
    const ranges = await t.db.select().from(calendarBusyRanges).where(eq(calendarBusyRanges.vetUserId, vetUserId));
    expect(ranges.map((range) => range.startsAt.toISOString())).toEqual(['2026-11-23T10:00:00.000Z']);
  });
});

describe('readBusyTimes after the link changed', () => {
  let caldav: FakeHttpServer;
  let t: TestApp;
  let vetUserId: number;
  /** The calendar server holds each account's requests until the test refuses that account (401). */
  const held: { user: string; response: ServerResponse }[] = [];
  const refused = new Set<string>();
  const userOf = (request: IncomingMessage) =>
    Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')[0]!;
  const refuse = (user: string) => {
    refused.add(user);
    for (const one of held.filter((entry) => entry.user === user)) {
      held.splice(held.indexOf(one), 1);
      one.response.writeHead(401).end();
    }
  };
  beforeAll(async () => {
    caldav = await startFakeHttpServer((request, response) => {
      const user = userOf(request);
      if (refused.has(user)) response.writeHead(401).end();
      else held.push({ user, response });
    });
  });
  afterAll(async () => {
    await caldav.close();
  });
  beforeEach(async () => {
    refused.clear();
    t = await buildTestApp({ clock: fixedClock(NOW) });
    vetUserId = (await buildVet(t.db, { email: 'v@clinic.test', name: 'V' })).user.id;
    await t.db.insert(vetCalendarLinks).values({
      vetUserId,
      kind: 'caldav',
      url: `${caldav.baseUrl}/`,
      username: 'v',
      passwordSealed: t.context.secrets.seal(CALDAV_PASSWORD_PURPOSE, 'pw'),
      busyCalendars: [`${caldav.baseUrl}/v/cal/`],
    });
  });
  afterEach(async () => {
    for (const one of held.splice(0)) one.response.destroy();
    await t.close();
  });
  const lastError = async () =>
    (await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, vetUserId)))[0]!.lastError;
  const outcome = (read: Promise<void>) =>
    read.then(
      () => 'read',
      () => 'failed',
    );

  it('is not shared with a read of the account linked before, whose outcome is not written', async () => {
    const before = outcome(readBusyTimes(t.context, vetUserId));
    await expect.poll(() => held.some((one) => one.user === 'v')).toBe(true);
    // The vet links another account while the first read is out.
    await t.db
      .update(vetCalendarLinks)
      .set({ username: 'w', busyCalendars: [`${caldav.baseUrl}/w/cal/`] })
      .where(eq(vetCalendarLinks.vetUserId, vetUserId));
    const after = outcome(readBusyTimes(t.context, vetUserId));
    // A read of its own, not the one in flight.
    await expect.poll(() => held.some((one) => one.user === 'w')).toBe(true);

    refuse('v');
    expect(await before).toBe('failed');
    // The old read's failure is not the new link's.
    expect(await lastError()).toBeNull();
    refuse('w');
    expect(await after).toBe('failed');
    expect(await lastError()).toMatch(/CalDAV/);
  });
});
