import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { calendarEvents, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { createDefaultProfile } from '../availability/availability-profiles.ts';
import { weekdays } from '../../../test/day-schedules.ts';

const PASSWORD = 'secret-pass';
/** Monday 12 January 2026, 10:10 in Lisbon (UTC+0 in winter; São Paulo is UTC−3, Tokyo UTC+9). */
const NOW = '2026-01-12T10:10:00Z';

type Headers = Record<string, string>;
type Role = 'anonymous' | 'customer' | 'vet' | 'manager';

/** Monday to Friday, the same hours. */

/** A customer, a manager and Rui (Lisbon, weekdays 09:00–12:00, 30-minute slots), logged in. */
async function buildWorld(t: TestApp) {
  // People first, so Rui's user id and vet id differ: a mix-up shows.
  await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Ana' });
  await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta' });
  const vet = await buildVet(t.db, {
    email: 'rui@clinic.test',
    password: PASSWORD,
    name: 'Rui',
    profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays('09:00', '12:00') },
  });
  const headers: Record<Role, Headers> = {
    anonymous: {},
    customer: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    vet: (await t.loginAs('rui@clinic.test', PASSWORD)).headers,
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
  };
  return { vet, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** A slot as the API answers it. */
const slot = (start: string, end: string, date: string, localStart: string) => ({
  start: `${start}:00.000Z`,
  end: `${end}:00.000Z`,
  date,
  local_start: localStart,
});

describe('scheduling: free slots and vets with availability', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const getSlots = (query: string, headers: Headers = w.headers.customer, vetId: number = w.vet.vet.id) =>
    t.app.inject({ method: 'GET', url: `/api/vets/${vetId}/slots?${query}`, headers });
  const withAvailability = (date: string, headers: Headers = w.headers.customer) =>
    t.app.inject({ method: 'GET', url: `/api/vets/withavailability/${date}`, headers });

  describe('who may call what', () => {
    it.each([
      ['anonymous', 401],
      ['customer', 200],
      ['vet', 200],
      ['manager', 200],
    ] as const)('GET slots and withavailability as %s answer %i', async (role, status) => {
      expect((await getSlots('from=2026-01-13&to=2026-01-13', w.headers[role])).statusCode).toBe(status);
      expect((await withAvailability('20260113', w.headers[role])).statusCode).toBe(status);
    });

    it.each([
      ['anonymous', 401],
      ['customer', 403],
      ['vet', 403],
      ['manager', 200],
    ] as const)('GET all_availabilities as %s answers %i', async (role, status) => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/vets/all_availabilities',
        headers: w.headers[role],
      });
      expect(response.statusCode).toBe(status);
    });
  });

  describe('GET /api/vets/{vet_id}/slots', () => {
    it('answers the Lisbon weekday pattern of a date as UTC instants with Lisbon labels', async () => {
      const response = await getSlots('from=2026-01-13&to=2026-01-13');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toStrictEqual([
        slot('2026-01-13T09:00', '2026-01-13T09:30', '2026-01-13', '09:00'),
        slot('2026-01-13T09:30', '2026-01-13T10:00', '2026-01-13', '09:30'),
        slot('2026-01-13T10:00', '2026-01-13T10:30', '2026-01-13', '10:00'),
        slot('2026-01-13T10:30', '2026-01-13T11:00', '2026-01-13', '10:30'),
        slot('2026-01-13T11:00', '2026-01-13T11:30', '2026-01-13', '11:00'),
        slot('2026-01-13T11:30', '2026-01-13T12:00', '2026-01-13', '11:30'),
      ]);
    });

    it('labels slots in the viewer’s zone: 09:00 in Lisbon is 06:00 in São Paulo in winter', async () => {
      const response = await getSlots('from=2026-01-13&to=2026-01-13&tz=America/Sao_Paulo');
      expect(response.statusCode).toBe(200);
      const body = response.json<{ start: string; local_start: string; date: string }[]>();
      expect(body).toHaveLength(6);
      expect(body[0]).toStrictEqual(slot('2026-01-13T09:00', '2026-01-13T09:30', '2026-01-13', '06:00'));
      expect(body.map((entry) => entry.local_start)).toEqual(['06:00', '06:30', '07:00', '07:30', '08:00', '08:30']);
    });

    it('takes the dates in the viewer’s zone: Tokyo’s 13 January holds Lisbon’s 13th, nine hours on', async () => {
      const response = await getSlots('from=2026-01-13&to=2026-01-13&tz=Asia/Tokyo');
      expect(response.statusCode).toBe(200);
      // Tokyo's 13 January is [12 Jan 15:00Z, 13 Jan 15:00Z): none of Monday's Lisbon slots (all before 12:00Z).
      expect(response.json()).toStrictEqual([
        slot('2026-01-13T09:00', '2026-01-13T09:30', '2026-01-13', '18:00'),
        slot('2026-01-13T09:30', '2026-01-13T10:00', '2026-01-13', '18:30'),
        slot('2026-01-13T10:00', '2026-01-13T10:30', '2026-01-13', '19:00'),
        slot('2026-01-13T10:30', '2026-01-13T11:00', '2026-01-13', '19:30'),
        slot('2026-01-13T11:00', '2026-01-13T11:30', '2026-01-13', '20:00'),
        slot('2026-01-13T11:30', '2026-01-13T12:00', '2026-01-13', '20:30'),
      ]);
    });

    it('leaves out the slots already past today, and answers none for past dates and weekends', async () => {
      const today = await getSlots('from=2026-01-12&to=2026-01-12');
      expect(today.json()).toStrictEqual([
        slot('2026-01-12T10:30', '2026-01-12T11:00', '2026-01-12', '10:30'),
        slot('2026-01-12T11:00', '2026-01-12T11:30', '2026-01-12', '11:00'),
        slot('2026-01-12T11:30', '2026-01-12T12:00', '2026-01-12', '11:30'),
      ]);
      expect((await getSlots('from=2026-01-05&to=2026-01-09')).json()).toStrictEqual([]);
      expect((await getSlots('from=2026-01-17&to=2026-01-18')).json()).toStrictEqual([]);
      expect((await getSlots('from=1900-01-01&to=1900-03-03')).json()).toStrictEqual([]);
      // Beyond the booking window only staff look (the vet's month view).
      expect((await getSlots('from=9999-10-31&to=9999-12-31', w.headers.vet)).json()).toStrictEqual([]);
    });

    it('covers a range of dates (a week: 3 + 4 × 6 slots) and up to 62 dates', async () => {
      const week = await getSlots('from=2026-01-12&to=2026-01-18');
      expect(week.statusCode).toBe(200);
      expect(week.json()).toHaveLength(27);
      // Staff see past the customers' one-month window.
      const longest = await getSlots('from=2026-01-12&to=2026-03-14', w.headers.manager);
      expect(longest.statusCode).toBe(200);
      // The default horizon (P10W) reaches 22 March: all of it.
      expect(longest.json().length).toBeGreaterThan(200);
    });

    it('uses the named profile, or the vet’s first one; another vet’s profile is 404', async () => {
      const second = await createDefaultProfile(t.db, w.vet.vet.id, {
        name: 'Evenings',
        timezone: 'Europe/Lisbon',
        daySchedules: [{ dayOfWeek: 2, workingIntervals: [{ start: '18:00', end: '19:00' }] }],
        durationMinutes: 60,
        availabilityStep: 60,
      });
      const evenings = await getSlots(`from=2026-01-13&to=2026-01-13&profile_id=${second.id}`);
      expect(evenings.json()).toStrictEqual([slot('2026-01-13T18:00', '2026-01-13T19:00', '2026-01-13', '18:00')]);
      expect((await getSlots('from=2026-01-13&to=2026-01-13')).json()).toHaveLength(6);

      const other = await buildVet(t.db, { profile: { daySchedules: weekdays('09:00', '10:00') } });
      expect((await getSlots(`from=2026-01-13&to=2026-01-13&profile_id=${other.profile.id}`)).statusCode).toBe(404);
      expect((await getSlots('from=2026-01-13&to=2026-01-13&profile_id=99999')).statusCode).toBe(404);
    });

    it('answers 404 for an unknown vet, a user id that is no vet id, and an inactive vet', async () => {
      expect((await getSlots('from=2026-01-13&to=2026-01-13', w.headers.customer, 9999)).statusCode).toBe(404);
      const userIdNotVetId = w.vet.user.id;
      expect(userIdNotVetId).not.toBe(w.vet.vet.id);
      expect((await getSlots('from=2026-01-13&to=2026-01-13', w.headers.customer, userIdNotVetId)).statusCode).toBe(
        404,
      );
      await t.db.update(users).set({ active: false }).where(eq(users.id, w.vet.user.id));
      const inactive = await getSlots('from=2026-01-13&to=2026-01-13', w.headers.manager);
      expect(inactive.statusCode).toBe(404);
      expect(inactive.json().error).toBe('not_found');
    });

    it.each([
      ['to=2026-01-13', 'from'],
      ['from=2026-01-13', 'to'],
      ['from=2026-1-13&to=2026-01-13', 'from'],
      ['from=2026-02-30&to=2026-03-01', 'from'],
      ['from=20260113&to=2026-01-13', 'from'],
      ['from=2026-01-14&to=2026-01-13', 'to'],
      ['from=2026-01-12&to=2026-03-15', 'to'],
      ['from=2026-01-13&to=2026-01-13&tz=Mars/Olympus', 'tz'],
      ['from=2026-01-13&to=2026-01-13&tz=', 'tz'],
      ['from=2026-01-13&to=2026-01-13&profile_id=abc', 'profile_id'],
      ['from=2026-01-13&to=2026-01-13&profile_id=0', 'profile_id'],
    ])('refuses ?%s with 400 on the field %s', async (query, field) => {
      const response = await getSlots(query);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('validation_failed');
      expect(Object.keys(response.json().fields)).toContain(field);
    });

    it('names a range of 63 dates too_big', async () => {
      const response = await getSlots('from=2026-01-12&to=2026-03-15');
      expect(response.json().fields).toStrictEqual({ to: 'too_big' });
    });

    it.each(['abc', '0', '1e3', '01'])('refuses the vet id %j with 400', async (id) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/vets/${id}/slots?from=2026-01-13&to=2026-01-13`,
        headers: w.headers.customer,
      });
      expect(response.statusCode).toBe(400);
    });
  });

  describe('GET /api/vets/withavailability/{yyyymmdd}', () => {
    it('answers the user ids of active vets with a free slot that date, in user id order', async () => {
      // A vet with no hours at all, and one with hours on a single Saturday only.
      await buildVet(t.db, {
        profile: { timezone: 'Europe/Lisbon', daySchedules: [{ dayOfWeek: 3, workingIntervals: [] }] },
      });
      const third = await buildVet(t.db, {
        profile: {
          timezone: 'Europe/Lisbon',
          availabilityIntervals: [{ dateStartInclusive: '2026-01-17', hours: [{ start: '10:00', end: '11:00' }] }],
        },
      });
      const response = await withAvailability('20260113');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toStrictEqual([w.vet.user.id]);
      // Saturday: only the vet with hours on that very date.
      expect((await withAvailability('20260117')).json()).toStrictEqual([third.user.id]);
      expect((await withAvailability('20260114')).json()).toStrictEqual([w.vet.user.id]);
    });

    it('leaves out inactive vets, past dates and dates beyond the horizon', async () => {
      expect((await withAvailability('20260109')).json()).toStrictEqual([]);
      // The default horizon P10W from Monday 12 January ends on Sunday 22 March.
      // Beyond the customers' one-month window, as staff.
      expect((await withAvailability('20260320', w.headers.manager)).json()).toStrictEqual([w.vet.user.id]);
      expect((await withAvailability('20260323', w.headers.manager)).json()).toStrictEqual([]);
      expect((await withAvailability('99991231', w.headers.manager)).json()).toStrictEqual([]);
      expect((await withAvailability('00010101')).json()).toStrictEqual([]);
      await t.db.update(users).set({ active: false }).where(eq(users.id, w.vet.user.id));
      expect((await withAvailability('20260113')).json()).toStrictEqual([]);
    });

    it('refuses a customer a date past one month from today (400 too_big), not staff', async () => {
      // Monday 12 January 2026: customers book up to Thursday 12 February (13th where it is already the 13th).
      expect((await withAvailability('20260212')).statusCode).toBe(200);
      const late = await withAvailability('20260214');
      expect([late.statusCode, late.json().fields]).toEqual([400, { date: 'too_big' }]);
      const slots = await getSlots('from=2026-02-10&to=2026-02-14');
      expect([slots.statusCode, slots.json().fields]).toEqual([400, { to: 'too_big' }]);
      expect((await getSlots('from=2026-02-12&to=2026-02-12')).statusCode).toBe(200);
      expect((await getSlots('from=2026-02-10&to=2026-02-14', w.headers.vet)).statusCode).toBe(200);
    });

    it('drops today when its last slot has passed', async () => {
      const early = await buildVet(t.db, {
        profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays('08:00', '10:00') },
      });
      expect((await withAvailability('20260112')).json()).toStrictEqual([w.vet.user.id]);
      expect((await withAvailability('20260113')).json()).toStrictEqual([w.vet.user.id, early.user.id]);
    });

    it('reads the date in the customer’s zone, defaulting to each vet’s own', async () => {
      // Tokyo, Tuesdays 09:00–10:00 = 00:00–01:00 UTC Tuesday = 21:00–22:00 Monday in São Paulo.
      const tokyo = await buildVet(t.db, {
        profile: {
          timezone: 'Asia/Tokyo',
          daySchedules: [{ dayOfWeek: 2, workingIntervals: [{ start: '09:00', end: '10:00' }] }],
        },
      });
      expect((await withAvailability('20260112')).json()).toStrictEqual([w.vet.user.id]);
      expect((await withAvailability('20260112?tz=America/Sao_Paulo')).json()).toStrictEqual([
        w.vet.user.id,
        tokyo.user.id,
      ]);
      expect((await withAvailability('20260113')).json()).toStrictEqual([w.vet.user.id, tokyo.user.id]);
      expect((await withAvailability('20260113?tz=America/Sao_Paulo')).json()).toStrictEqual([w.vet.user.id]);
      // In Tokyo, Lisbon's 09:00–12:00 is 18:00–21:00 of the same date.
      expect((await withAvailability('20260113?tz=Asia/Tokyo')).json()).toStrictEqual([w.vet.user.id, tokyo.user.id]);
    });

    it.each(['2026013', '202601130', '2026-01-13', '20260230', '20261301', '20260100', 'abcdefgh', '2026011a'])(
      'refuses the date %j with 400',
      async (date) => {
        const response = await withAvailability(date);
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toBe('validation_failed');
      },
    );

    it('refuses an unknown zone with 400', async () => {
      const response = await withAvailability('20260113?tz=Nowhere/Land');
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toStrictEqual({ tz: 'invalid_value' });
    });
  });

  describe('GET /api/vets/all_availabilities', () => {
    it('answers every active vet with their first profile in the availability API format', async () => {
      await createDefaultProfile(t.db, w.vet.vet.id, { name: 'Second' });
      const gone = await buildVet(t.db, { name: 'Gone', active: false });
      const sara = await buildVet(t.db, { name: 'Sara', profile: { timezone: 'Atlantic/Azores' } });
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/vets/all_availabilities',
        headers: w.headers.manager,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.map((entry: { vet_id: number }) => entry.vet_id)).toStrictEqual([w.vet.vet.id, sara.vet.id]);
      expect(body).not.toContainEqual(expect.objectContaining({ vet_id: gone.vet.id }));
      expect(body[0]).toStrictEqual({
        vet_id: w.vet.vet.id,
        user_id: w.vet.user.id,
        name: 'Rui',
        availability_config: {
          id: w.vet.profile.id,
          name: 'Video consultation',
          durationMinutes: 30,
          availabilityStep: 30,
          timeAvailableFor: 'P10W',
          subject: '',
          description: 'Vet appointments',
          location: 'Video call',
          workHours: {
            timezone: 'Europe/Lisbon',
            daySchedules: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((dayOfWeek) => ({
              dayOfWeek,
              workingIntervals: [{ start: '09:00', end: '12:00' }],
            })),
          },
          availabilityIntervals: { intervals: [] },
          context: '',
          startConference: true,
        },
      });
      expect(body[1]).toMatchObject({
        name: 'Sara',
        user_id: sara.user.id,
        availability_config: { id: sara.profile.id, workHours: { timezone: 'Atlantic/Azores' } },
      });
    });
  });

  describe('GET /api/vets/{vet_id}/bookedtimes', () => {
    const booked = (query: string, headers: Headers, vetId: number = w.vet.vet.id) =>
      t.app.inject({ method: 'GET', url: `/api/vets/${vetId}/bookedtimes?${query}`, headers });

    /** A calendar entry of Rui's: a booking, or a hold lapsing at `expiresAt`. */
    const entry = (
      startsAt: string,
      kind: 'booking' | 'hold',
      extra: Partial<typeof calendarEvents.$inferInsert> = {},
    ) =>
      t.db.insert(calendarEvents).values({
        eventId: `event-${startsAt.replace(/\W/g, '')}-${kind}-${Math.random().toString(36).slice(2, 12)}`,
        vetUserId: w.vet.user.id,
        kind,
        startsAt: new Date(startsAt),
        endsAt: new Date(new Date(startsAt).getTime() + 30 * 60_000),
        expiresAt: kind === 'hold' ? new Date('2026-01-12T10:25:00Z') : null,
        ...extra,
      });

    it.each([
      ['anonymous', 401],
      ['customer', 403],
      ['vet', 200],
      ['manager', 200],
    ] as const)('as %s answers %i', async (role, status) => {
      expect((await booked('from=2026-01-13&to=2026-01-13', w.headers[role])).statusCode).toBe(status);
    });

    it('answers another vet’s calendar as 404 to a vet, and an unknown vet as 404', async () => {
      const other = await buildVet(t.db, { name: 'Sara' });
      expect((await booked('from=2026-01-13&to=2026-01-13', w.headers.vet, other.vet.id)).statusCode).toBe(404);
      expect((await booked('from=2026-01-13&to=2026-01-13', w.headers.manager, 999_999)).statusCode).toBe(404);
    });

    it('lists bookings and live holds starting on the dates, labelled in the zone; not expired or released ones', async () => {
      await entry('2026-01-13T09:00:00Z', 'booking');
      await entry('2026-01-13T10:00:00Z', 'hold');
      await entry('2026-01-13T11:00:00Z', 'hold', { expiresAt: new Date('2026-01-12T10:00:00Z') });
      await entry('2026-01-13T11:30:00Z', 'booking', { releasedAt: new Date('2026-01-12T09:00:00Z') });
      await entry('2026-01-14T09:00:00Z', 'booking');
      const other = await buildVet(t.db, { name: 'Sara' });
      await entry('2026-01-13T09:30:00Z', 'booking', { vetUserId: other.user.id });

      const lisbon = await booked('from=2026-01-13&to=2026-01-13', w.headers.vet);
      expect(lisbon.statusCode).toBe(200);
      expect(lisbon.json()).toStrictEqual([
        { ...slot('2026-01-13T09:00', '2026-01-13T09:30', '2026-01-13', '09:00'), kind: 'booking' },
        { ...slot('2026-01-13T10:00', '2026-01-13T10:30', '2026-01-13', '10:00'), kind: 'hold' },
      ]);
      const saoPaulo = await booked('from=2026-01-13&to=2026-01-14&tz=America/Sao_Paulo', w.headers.manager);
      expect(saoPaulo.json().map((item: { local_start: string }) => item.local_start)).toStrictEqual([
        '06:00',
        '07:00',
        '06:00',
      ]);
    });

    it('validates the range like the slots route', async () => {
      const response = await booked('from=2026-01-14&to=2026-01-13', w.headers.vet);
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toStrictEqual({ to: 'invalid_value' });
    });

    // Found by the route fuzz test (src/fuzz): these days reach past the years PostgreSQL takes, a 500.
    it.each([
      'from=0001-01-01&to=0001-01-01&tz=UTC',
      'from=0001-01-01&to=0001-01-01&tz=Asia/Tokyo',
      'from=9999-12-31&to=9999-12-31',
    ])('answers the ends of the calendar, ?%s, with what is there', async (query) => {
      const response = await booked(query, w.headers.manager);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toStrictEqual([]);
    });
  });
});
