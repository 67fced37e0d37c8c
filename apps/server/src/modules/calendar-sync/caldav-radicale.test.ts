import { request as httpRequest } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, availabilityProfiles, calendarBusyRanges, vetCalendarLinks, vets } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  requestedAppointmentSteps,
} from '../../../test/appointment-world.ts';
import { type Radicale, startRadicale } from '../../../test/radicale.ts';
import { startFakeHttpServer, unusedBaseUrl } from '../../../test/fake-http-server.ts';
import { weekdays } from '../../../test/day-schedules.ts';

/**
 * Wednesday 18 November 2026, 12:00 UTC. Sara works weekdays 10:00–12:00 São Paulo (13:00–15:00 UTC) and has
 * Bruno's requested appointment on Wednesday 25th at 13:00 UTC. Her own calendar is on a real Radicale.
 */
const NOW = '2026-11-18T12:00:00Z';
const SARA_PASSWORD = 'app-password-of-sara';

/** An iCalendar object as a calendar app would write it. */
const ics = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Radicale//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');

let radicale: Radicale;
/** Sara confirms at the booked time: 10:00 on her São Paulo browser (UTC−3). */
let workUrl: string;
let personalUrl: string;
/** Another account on the same server, which Sara's credentials cannot reach (and the other way round). */
let ruiUrl: string;
beforeAll(async () => {
  radicale = await startRadicale({ sara: SARA_PASSWORD, rui: 'rui-password' });
  workUrl = await radicale.makeCalendar('sara', 'work');
  personalUrl = await radicale.makeCalendar('sara', 'personal');
  ruiUrl = await radicale.makeCalendar('rui', 'clinic');
}, 30_000);
afterAll(async () => {
  await radicale.close();
});

describe('the vet’s own calendar over CalDAV (Radicale)', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  const steps = () => requestedAppointmentSteps(t, w);
  let clock: ReturnType<typeof fixedClock>;
  const written: { url: string; uid: string }[] = [];
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildAppointmentWorld(t);
    await t.db
      .update(availabilityProfiles)
      .set({ daySchedules: weekdays('10:00', '12:00') })
      .where(eq(availabilityProfiles.id, w.sara.profile.id));
  });
  afterEach(async () => {
    await t.close();
    for (const event of written.splice(0))
      await radicale.deleteEvent('sara', event.url, event.uid).catch(() => undefined);
    for (const event of await radicale.events('sara', workUrl)) {
      await radicale.deleteEvent('sara', workUrl, encodeURIComponent(event.uid)).catch(() => undefined);
    }
  });

  const link = (headers: Headers, payload: object, vetId = w.sara.vet.id) =>
    t.app.inject({ method: 'PUT', url: `/api/vets/${vetId}/calendar/caldav`, headers, payload });
  const linkSara = async () => {
    const response = await link(w.headers.otherVet, {
      url: `${radicale.baseUrl}/`,
      username: 'sara',
      password: SARA_PASSWORD,
      target_calendar: workUrl,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const slotStarts = async (date: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${w.sara.vet.id}/slots?from=${date}&to=${date}&tz=UTC`,
      headers: w.headers.customer,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ start: string }[]>().map((slot) => slot.start.slice(11, 16));
  };
  const putBusy = async (url: string, uid: string, ...lines: string[]) => {
    await radicale.putEvent(
      'sara',
      url,
      uid,
      ics('BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20261101T000000Z', ...lines, 'END:VEVENT'),
    );
    written.push({ url, uid });
  };

  it('links after checking the credentials: calendars listed, password sealed and never answered', async () => {
    const response = await linkSara();
    expect(response.json<{ linked: boolean; calendars: { url: string }[] }>()).toMatchObject({ linked: true });
    const urls = response
      .json<{ calendars: { url: string }[] }>()
      .calendars.map((calendar) => calendar.url)
      .sort();
    expect(urls).toEqual([personalUrl, workUrl].sort());
    expect(response.body).not.toContain(SARA_PASSWORD);

    const [row] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    expect(row).toMatchObject({ kind: 'caldav', username: 'sara', targetCalendar: workUrl });
    expect(row!.passwordSealed).not.toContain(SARA_PASSWORD);
    expect(t.context.secrets.open('caldav-password', row!.passwordSealed)).toBe(SARA_PASSWORD);
    const [vet] = await t.db.select().from(vets).where(eq(vets.id, w.sara.vet.id));
    expect(vet!.accountToken).not.toBe('');

    const status = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${w.sara.vet.id}/calendar`,
      headers: w.headers.otherVet,
    });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      kind: 'caldav',
      url: `${radicale.baseUrl}/`,
      target_calendar: workUrl,
      stale: false,
    });
    expect(status.json<{ busy_read_at: string | null }>().busy_read_at).toBe(new Date(NOW).toISOString());
    expect(status.body).not.toContain(SARA_PASSWORD);
  });

  it('refuses a wrong password (calendar_auth_failed) and an address with no server (calendar_unreachable)', async () => {
    const wrong = await link(w.headers.otherVet, { url: `${radicale.baseUrl}/`, username: 'sara', password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'calendar_auth_failed' });
    const nowhere = await link(w.headers.otherVet, { url: await unusedBaseUrl(), username: 'sara', password: 'x' });
    expect(nowhere.statusCode).toBe(400);
    expect(nowhere.json()).toMatchObject({ error: 'calendar_unreachable' });
    expect(await t.db.select().from(vetCalendarLinks)).toEqual([]);
  });

  it('lets only the vet themself link: another vet, a manager and a customer get 403, no session 401', async () => {
    const payload = { url: `${radicale.baseUrl}/`, username: 'sara', password: SARA_PASSWORD };
    expect((await link(w.headers.vet, payload)).statusCode).toBe(403);
    expect((await link(w.headers.manager, payload)).statusCode).toBe(403);
    expect((await link(w.headers.customer, payload)).statusCode).toBe(403);
    expect((await link({}, payload)).statusCode).toBe(401);
    const invalid = await link(w.headers.otherVet, { url: 'ftp://x', username: '', password: '' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      fields: { url: 'invalid_format', username: 'required', password: 'required' },
    });
  });

  it('takes busy events out of the slots: recurring (other zone), all-day, refreshed on the button and when stale', async () => {
    await linkSara();
    expect(await slotStarts('2026-11-23')).toContain('13:00');
    expect(await slotStarts('2026-11-24')).toHaveLength(4);

    // Every day 10:00–10:30 in São Paulo, five times from Thursday 19th (UTC 13:00–13:30), one moved away.
    await putBusy(
      personalUrl,
      'daily-walk',
      'DTSTART;TZID=America/Sao_Paulo:20261119T100000',
      'DTEND;TZID=America/Sao_Paulo:20261119T103000',
      'RRULE:FREQ=DAILY;COUNT=5',
    );
    // All of Tuesday 24th (her zone).
    await putBusy(personalUrl, 'day-off', 'DTSTART;VALUE=DATE:20261124', 'DTEND;VALUE=DATE:20261125');
    // Cached: the same answer until the calendar is read again.
    expect(await slotStarts('2026-11-23')).toContain('13:00');

    const refreshed = await t.app.inject({
      method: 'POST',
      url: `/api/vets/${w.sara.vet.id}/calendar/refresh`,
      headers: w.headers.otherVet,
    });
    expect(refreshed.statusCode).toBe(200);
    expect(await slotStarts('2026-11-23')).toEqual(['13:30', '14:00', '14:30']);
    expect(await slotStarts('2026-11-24')).toEqual([]);
    expect(await slotStarts('2026-11-25')).toContain('13:00');

    // A customer cannot hold the busy time.
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers: w.headers.customer,
      payload: { vet_id: w.sara.vet.id, profile_id: w.sara.profile.id, start: '2026-11-23T13:00:00Z' },
    });
    expect(hold.statusCode).toBe(409);

    // A new event, 2 minutes later, with no button: read again because the times are stale.
    await putBusy(personalUrl, 'lunch', 'DTSTART:20261125T140000Z', 'DTEND:20261125T150000Z');
    clock.advance(2 * 60_000 + 1000);
    expect(await slotStarts('2026-11-25')).toEqual(['13:00', '13:30']);
  });

  it('keeps the last busy times when the calendar cannot be reached, and says so', async () => {
    await linkSara();
    await putBusy(personalUrl, 'meeting', 'DTSTART:20261123T130000Z', 'DTEND:20261123T140000Z');
    await t.app.inject({
      method: 'POST',
      url: `/api/vets/${w.sara.vet.id}/calendar/refresh`,
      headers: w.headers.otherVet,
    });
    expect(await slotStarts('2026-11-23')).toEqual(['14:00', '14:30']);
    // The server moved away.
    await t.db
      .update(vetCalendarLinks)
      .set({ url: await unusedBaseUrl() })
      .where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    clock.advance(3 * 60_000);
    expect(await slotStarts('2026-11-23')).toEqual(['14:00', '14:30']);
    const status = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${w.sara.vet.id}/calendar`,
      headers: w.headers.otherVet,
    });
    expect(status.json()).toMatchObject({ stale: true, busy_read_at: new Date(NOW).toISOString() });
    expect(status.json<{ last_error: string }>().last_error).toMatch(/CalDAV/);
    expect(await t.db.select().from(calendarBusyRanges)).toHaveLength(1);
  });

  const choose = (headers: Headers, payload: object, vetId = w.sara.vet.id) =>
    t.app.inject({ method: 'PUT', url: `/api/vets/${vetId}/calendar/caldav/choices`, headers, payload });

  it('changes the busy and target calendars with the kept credentials, and reads the busy times again', async () => {
    await linkSara();
    await putBusy(personalUrl, 'dentist', 'DTSTART:20261123T130000Z', 'DTEND:20261123T140000Z');
    clock.advance(3 * 60_000);
    expect(await slotStarts('2026-11-23')).toEqual(['14:00', '14:30']);
    const [before] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));

    clock.advance(1000);
    const chosen = await choose(w.headers.otherVet, { busy_calendars: [workUrl], target_calendar: personalUrl });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({
      kind: 'caldav',
      busy_calendars: [workUrl],
      target_calendar: personalUrl,
      busy_read_at: clock.now().toISOString(),
      stale: false,
    });
    expect(chosen.body).not.toContain(SARA_PASSWORD);
    // The personal calendar no longer makes her busy; the credentials are the ones kept.
    expect(await slotStarts('2026-11-23')).toEqual(['13:00', '13:30', '14:00', '14:30']);
    const [after] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    expect(after!.passwordSealed).toBe(before!.passwordSealed);

    // The target defaults to the first calendar; no busy calendar at all is a choice too.
    const none = await choose(w.headers.otherVet, { busy_calendars: [] });
    expect(none.json()).toMatchObject({ busy_calendars: [], target_calendar: before!.calendars[0]!.url });
  });

  it('moves the appointments already written when the target calendar changes', async () => {
    await linkSara();
    const confirm = await steps().confirm();
    expect(confirm.statusCode, confirm.body).toBe(200);
    const [event] = await radicale.events('sara', workUrl);
    expect(event).toBeDefined();

    const chosen = await choose(w.headers.otherVet, {
      busy_calendars: [workUrl, personalUrl],
      target_calendar: personalUrl,
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await t.context.jobs.drain();
    expect(await radicale.events('sara', workUrl)).toEqual([]);
    const moved = await radicale.events('sara', personalUrl);
    expect(moved.map((one) => [one.uid, one.start])).toEqual([[event!.uid, event!.start]]);
    written.push({ url: personalUrl, uid: encodeURIComponent(event!.uid) });

    // Later changes reach it there, once.
    const cancel = await steps().cancel();
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await radicale.events('sara', personalUrl)).toEqual([]);
  });

  it('leaves the events of an account linked before, and writes the next change into the new account', async () => {
    await linkSara();
    expect((await steps().confirm()).statusCode).toBe(200);
    const [event] = await radicale.events('sara', workUrl);
    const other = await link(w.headers.otherVet, {
      url: `${radicale.baseUrl}/`,
      username: 'rui',
      password: 'rui-password',
    });
    expect(other.statusCode, other.body).toBe(200);

    const moved = await steps().moveTo('2026-11-26T14:00:00Z');
    expect(moved.statusCode, moved.body).toBe(200);
    await t.context.jobs.drain();
    // Rui's credentials cannot reach Sara's calendar: her event stays as it was, as unlinking leaves events.
    expect((await radicale.events('sara', workUrl)).map((one) => one.start)).toEqual([event!.start]);
    const written = await radicale.events('rui', ruiUrl);
    expect(written.map((one) => one.start)).toEqual(['2026-11-26T14:00:00.000Z']);
    for (const one of written) await radicale.deleteEvent('rui', ruiUrl, encodeURIComponent(one.uid));
  });

  it('refuses choices that are not the account’s calendars, and says when the kept password no longer works', async () => {
    await linkSara();
    const stranger = await choose(w.headers.otherVet, { busy_calendars: [`${radicale.baseUrl}/rui/`] });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json()).toMatchObject({ error: 'validation_failed', fields: { busy_calendars: 'invalid_value' } });
    const target = await choose(w.headers.otherVet, { busy_calendars: [workUrl], target_calendar: 'https://x.test/' });
    expect(target.json()).toMatchObject({ fields: { target_calendar: 'invalid_value' } });
    const malformed = await choose(w.headers.otherVet, { busy_calendars: ['not a url'], target_calendar: 7 });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ fields: { 'busy_calendars.0': 'invalid_format' } });
    const [row] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    expect(row!.busyCalendars.sort()).toEqual([personalUrl, workUrl].sort());

    // The app password was revoked at the calendar server.
    await t.db
      .update(vetCalendarLinks)
      .set({ passwordSealed: t.context.secrets.seal('caldav-password', 'revoked') })
      .where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
    const refused = await choose(w.headers.otherVet, { busy_calendars: [workUrl] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'calendar_auth_failed' });
  });

  it('refuses choices for an account no longer linked when they are saved (another tab linked another one)', async () => {
    // Sara's server behind a proxy that lets the test act while the choices request lists her calendars.
    let meanwhile: (() => Promise<void>) | undefined;
    const proxy = await startFakeHttpServer((request, response) => {
      const forward = async () => {
        const once = meanwhile;
        meanwhile = undefined;
        await once?.();
        const upstream = httpRequest(
          `${radicale.baseUrl}${request.url}`,
          { method: request.method, headers: { ...request.headers, host: new URL(radicale.baseUrl).host } },
          (answer) => {
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(response);
          },
        );
        request.pipe(upstream);
      };
      void forward();
    });
    try {
      const linked = await link(w.headers.otherVet, {
        url: `${proxy.baseUrl}/`,
        username: 'sara',
        password: SARA_PASSWORD,
      });
      expect(linked.statusCode, linked.body).toBe(200);
      const other = { url: `${radicale.baseUrl}/`, username: 'rui', calendars: [{ url: ruiUrl, name: 'clinic' }] };
      meanwhile = async () => {
        await t.db
          .update(vetCalendarLinks)
          .set({ ...other, busyCalendars: [ruiUrl], targetCalendar: ruiUrl })
          .where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
      };
      // The calendars as listed through the proxy.
      const work = workUrl.replace(radicale.baseUrl, proxy.baseUrl);
      const chosen = await choose(w.headers.otherVet, { busy_calendars: [work], target_calendar: work });
      expect(chosen.statusCode, chosen.body).toBe(404);
      const [row] = await t.db.select().from(vetCalendarLinks).where(eq(vetCalendarLinks.vetUserId, w.sara.user.id));
      expect(row).toMatchObject({ ...other, busyCalendars: [ruiUrl], targetCalendar: ruiUrl });
    } finally {
      await proxy.close();
    }
  });

  it('lets only the vet themself choose, and only once a CalDAV calendar is linked', async () => {
    const payload = { busy_calendars: [] };
    expect((await choose(w.headers.otherVet, payload)).statusCode).toBe(404);
    await linkSara();
    expect((await choose(w.headers.vet, payload)).statusCode).toBe(403);
    expect((await choose(w.headers.manager, payload)).statusCode).toBe(403);
    expect((await choose(w.headers.customer, payload)).statusCode).toBe(403);
    expect((await choose({}, payload)).statusCode).toBe(401);
    expect((await choose(w.headers.otherVet, payload)).statusCode).toBe(200);
  });

  it('writes the confirmed appointment into the target calendar, moves it and deletes it with the appointment', async () => {
    await linkSara();
    const confirm = await steps().confirm();
    expect(confirm.statusCode, confirm.body).toBe(200);
    const [event] = await radicale.events('sara', workUrl);
    expect(event).toMatchObject({ start: '2026-11-25T13:00:00.000Z', end: '2026-11-25T13:30:00.000Z' });
    expect(event!.summary).toContain('Tareco');
    expect(event!.summary).toContain('Bruno Reis');
    expect(event!.url).toContain(`/appointment/${confirm.json<{ appointment_pin: string }>().appointment_pin}`);
    expect(event!.text).not.toContain('private notes');
    // Not read back as busy time of its own.
    await t.app.inject({
      method: 'POST',
      url: `/api/vets/${w.sara.vet.id}/calendar/refresh`,
      headers: w.headers.otherVet,
    });
    expect(await t.db.select().from(calendarBusyRanges)).toEqual([]);

    const moved = await steps().moveTo('2026-11-26T14:00:00Z');
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await radicale.events('sara', workUrl);
    expect(after.map((one) => [one.uid, one.start])).toEqual([[event!.uid, '2026-11-26T14:00:00.000Z']]);

    const cancel = await steps().cancel();
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await radicale.events('sara', workUrl)).toEqual([]);
    const [row] = await t.db.select().from(appointments).where(eq(appointments.id, w.requested.id));
    expect(row!.status).toBe('TK_Canceled');
  });

  it('unlinking stops the writes and deletes nothing in the calendar', async () => {
    await linkSara();
    await steps().confirm();
    expect(await radicale.events('sara', workUrl)).toHaveLength(1);
    const unlink = await t.app.inject({
      method: 'PUT',
      url: `/api/vets/removecalendarassociation/${w.sara.vet.id}`,
      headers: w.headers.otherVet,
    });
    expect(unlink.statusCode).toBe(200);
    expect(unlink.json()).toEqual({ vet_id: w.sara.vet.id, calendar_linked: false });
    expect(await t.db.select().from(vetCalendarLinks)).toEqual([]);
    await steps().cancel();
    expect(await radicale.events('sara', workUrl)).toHaveLength(1);
  });
});
