import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { availabilityProfiles, vetCalendarLinks } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  requestedAppointmentSteps,
} from '../../../test/appointment-world.ts';
import { fakeAurinkoCalendar } from '../../../test/fake-aurinko-calendar.ts';
import { type FakeHttpServer, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { createAurinkoCalendarSync } from '../../providers/calendar/aurinko.ts';
import { CalendarAuthFailed } from '../../providers/calendar/calendar-sync-provider.ts';
import { weekdays } from '../../../test/day-schedules.ts';

/** Wednesday 18 November 2026, 12:00 UTC; Sara works 10:00–12:00 São Paulo (13:00–15:00 UTC). */
const NOW = '2026-11-18T12:00:00Z';
const TOKEN = 'aurinko-token-of-sara';

describe('the vet’s own calendar through Aurinko (a local server speaking its calendar API)', () => {
  let aurinko: FakeHttpServer;
  let fake: ReturnType<typeof fakeAurinkoCalendar>;
  let t: TestApp;
  let w: AppointmentWorld;
  const steps = () => requestedAppointmentSteps(t, w);
  beforeAll(async () => {
    aurinko = await startFakeHttpServer();
  });
  afterAll(async () => {
    await aurinko.close();
  });
  beforeEach(async () => {
    fake = fakeAurinkoCalendar(TOKEN);
    aurinko.handle = fake.handle;
    t = await buildTestApp({
      clock: fixedClock(NOW),
      env: { CALENDAR_PROVIDER: 'aurinko', AURINKO_URL: aurinko.baseUrl, AURINKO_CLIENT_ID: 'client-123' },
    });
    w = await buildAppointmentWorld(t);
    await t.db
      .update(availabilityProfiles)
      .set({ daySchedules: weekdays('10:00', '12:00') })
      .where(eq(availabilityProfiles.id, w.sara.profile.id));
  });
  afterEach(async () => {
    await t.close();
  });

  const slotStarts = async (date: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${w.sara.vet.id}/slots?from=${date}&to=${date}&tz=UTC`,
      headers: w.headers.customer,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ start: string }[]>().map((slot) => slot.start.slice(11, 16));
  };
  const linkToken = async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/vets/token/${w.sara.vet.id}`,
      headers: w.headers.otherVet,
      payload: { vet_id: w.sara.vet.id, account_token: TOKEN },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  it('keeps the token Aurinko vouched for and reads the primary calendar’s busy times with it, page by page', async () => {
    fake.calendars.get('primary')!.events.push(
      { id: 'a', start: { dateTime: '2026-11-23T13:00:00Z' }, end: { dateTime: '2026-11-23T13:30:00Z' } },
      // A wall time of its zone: 11:00 São Paulo is 14:00 UTC.
      {
        id: 'b',
        start: { dateTime: '2026-11-23T11:00:00', timezone: 'America/Sao_Paulo' },
        end: { dateTime: '2026-11-23T11:30:00', timezone: 'America/Sao_Paulo' },
      },
      {
        id: 'c',
        start: { dateTime: '2026-11-23T14:30:00Z' },
        end: { dateTime: '2026-11-23T15:00:00Z' },
        showAs: 'free',
      },
      { id: 'd', start: { date: '2026-11-24' }, end: { date: '2026-11-25' } },
    );
    await linkToken();
    const [link] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    expect(link).toMatchObject({ kind: 'aurinko', busyCalendars: ['primary'], targetCalendar: 'primary' });
    expect(await slotStarts('2026-11-23')).toEqual(['13:30', '14:30']);
    expect(await slotStarts('2026-11-24')).toEqual([]);
    const ranges = aurinko.requests.filter((request) => request.url.includes('/events/range'));
    expect(ranges.length).toBeGreaterThanOrEqual(2);
    expect(ranges.every((request) => request.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('writes the confirmed appointment, moves it with the appointment and deletes it when cancelled', async () => {
    await linkToken();
    const confirm = await steps().confirm();
    expect(confirm.statusCode, confirm.body).toBe(200);
    const events = fake.calendars.get('primary')!.events;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      start: { dateTime: '2026-11-25T13:00:00.000Z' },
      end: { dateTime: '2026-11-25T13:30:00.000Z' },
    });
    expect(events[0]!.subject).toContain('Tareco');
    expect(events[0]!.subject).toContain('Bruno Reis');
    expect(JSON.stringify(events[0])).not.toContain('private notes');

    const moved = await steps().moveTo('2026-11-26T14:00:00Z');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(events).toHaveLength(1);
    expect(events[0]!.start.dateTime).toBe('2026-11-26T14:00:00.000Z');
    expect(aurinko.requests.some((request) => request.method === 'PATCH')).toBe(true);

    const cancel = await steps().cancel();
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(events).toEqual([]);
  });

  it('tells a refused token (CalendarAuthFailed) from an unreachable Aurinko', async () => {
    const provider = createAurinkoCalendarSync({ baseUrl: aurinko.baseUrl, token: 'wrong', timeZone: 'UTC' });
    await expect(provider.listCalendars()).rejects.toBeInstanceOf(CalendarAuthFailed);
    const good = createAurinkoCalendarSync({ baseUrl: aurinko.baseUrl, token: TOKEN, timeZone: 'UTC' });
    expect(await good.listCalendars()).toEqual([
      { url: 'primary', name: 'Rui (Outlook)' },
      { url: 'holidays', name: 'Holidays' },
    ]);
  });
});
