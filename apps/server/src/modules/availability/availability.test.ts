import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { availabilityProfiles, users } from '../../db/schema.ts';
import { seedDemoData } from '../../demo-data/seed.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { createDefaultProfile } from './availability-profiles.ts';

const PASSWORD = 'secret-pass';

type Role = 'manager' | 'otherManager' | 'vet' | 'otherVet' | 'customer' | 'anonymous';
type Headers = Record<string, string>;
type Interval = { start: string; end: string };

/**
 * What a profile made with the database defaults answers (docs/product-rules.md#entities, #limits; the zone is the
 * product's).
 */
const defaultProfile = (id: number) => ({
  id,
  name: 'Video consultation',
  durationMinutes: 30,
  availabilityStep: 30,
  timeAvailableFor: 'P10W',
  subject: '',
  description: 'Vet appointments',
  location: 'Video call',
  workHours: { timezone: 'Europe/Lisbon', daySchedules: [] },
  availabilityIntervals: { intervals: [] },
  context: '',
  startConference: true,
});

/** A complete PATCH body, already in the order GET answers (Monday first, intervals by start, dates ascending). */
function profileBody(
  overrides: {
    days?: { dayOfWeek: string; workingIntervals: Interval[] }[];
    dates?: { dateStartInclusive: string; hours: Interval[] }[];
    timezone?: string;
    [key: string]: unknown;
  } = {},
) {
  const { days, dates, timezone, ...rest } = overrides;
  return {
    name: 'Morning clinic',
    durationMinutes: 45,
    availabilityStep: 15,
    timeAvailableFor: 'P8W',
    subject: 'VetCall consultation',
    description: 'Orthopaedic follow-ups',
    location: 'Video call',
    workHours: {
      timezone: timezone ?? 'Atlantic/Azores',
      daySchedules: days ?? [
        {
          dayOfWeek: 'monday',
          workingIntervals: [
            { start: '09:00', end: '12:00' },
            { start: '12:00', end: '13:00' },
          ],
        },
        { dayOfWeek: 'thursday', workingIntervals: [{ start: '14:00', end: '24:00' }] },
        { dayOfWeek: 'sunday', workingIntervals: [] },
      ],
    },
    availabilityIntervals: {
      intervals: dates ?? [
        { dateStartInclusive: '2026-03-02', hours: [{ start: '10:00', end: '11:30' }] },
        { dateStartInclusive: '2026-04-25', hours: [] },
      ],
    },
    context: 'bring the x-rays',
    startConference: false,
    ...rest,
  };
}

const monday = (...workingIntervals: Interval[]) => [{ dayOfWeek: 'monday', workingIntervals }];

/**
 * Two managers (Marta, Nuno), two vets (Rui and Sara) and a customer (Ana). Sara is made first and
 * gets a second profile, so Rui's user id, vet id and profile id all differ: a mix-up shows.
 */
async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta' });
  const otherManager = await buildManager(t.db, { email: 'nuno@clinic.test', password: PASSWORD, name: 'Nuno' });
  const otherVet = await buildVet(t.db, { email: 'vet.sara@clinic.test', password: PASSWORD, name: 'Sara' });
  const otherVetSecondProfile = await createDefaultProfile(t.db, otherVet.vet.id, { name: 'Home visits' });
  const vet = await buildVet(t.db, { email: 'vet.rui@clinic.test', password: PASSWORD, name: 'Rui' });
  const customer = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Ana' });
  const headers: Record<Role, Headers> = {
    manager: (await t.loginAs('boss@clinic.test', PASSWORD)).headers,
    otherManager: (await t.loginAs('nuno@clinic.test', PASSWORD)).headers,
    vet: (await t.loginAs('vet.rui@clinic.test', PASSWORD)).headers,
    otherVet: (await t.loginAs('vet.sara@clinic.test', PASSWORD)).headers,
    customer: (await t.loginAs('ana@clinic.test', PASSWORD)).headers,
    anonymous: {},
  };
  return { manager, otherManager, vet, otherVet, otherVetSecondProfile, customer, headers };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

/** Every stored profile, in id order: what a refused call must leave alone. */
const storedProfiles = (t: TestApp) => t.db.select().from(availabilityProfiles).orderBy(asc(availabilityProfiles.id));

const errorBody = (error: string) => ({ error, message: expect.any(String) });

describe('availability routes: who may call what', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const expectedByRole: [Role, number][] = [
    ['anonymous', 401],
    ['customer', 403],
    ['otherVet', 404],
    ['vet', 200],
    ['manager', 200],
    ['otherManager', 200],
  ];
  const errorOf = { 401: 'unauthorized', 403: 'forbidden', 404: 'not_found' } as const;

  it.each(expectedByRole)('GET calendarprofiles of Rui as %s answers %i', async (role, status) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/calendarprofiles/${w.vet.vet.id}`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) {
      expect(response.json()).toStrictEqual([{ id: w.vet.profile.id, name: 'Video consultation' }]);
    } else expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
  });

  it.each(expectedByRole)('GET availability of Rui’s profile as %s answers %i', async (role, status) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/availability/${w.vet.vet.id}/${w.vet.profile.id}`,
      headers: w.headers[role],
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toStrictEqual(defaultProfile(w.vet.profile.id));
    else expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
  });

  it.each(expectedByRole)('PATCH availability of Rui’s profile as %s answers %i', async (role, status) => {
    const before = await storedProfiles(t);
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/vets/availability/${w.vet.vet.id}/${w.vet.profile.id}`,
      headers: w.headers[role],
      payload: profileBody(),
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) expect(response.json()).toStrictEqual({ id: w.vet.profile.id, ...profileBody() });
    else {
      expect(response.json()).toEqual(errorBody(errorOf[status as keyof typeof errorOf]));
      expect(await storedProfiles(t)).toEqual(before);
    }
  });

  it.each([
    ['customer', 200],
    ['vet', 200],
    ['manager', 200],
    ['anonymous', 401],
  ] as const)('GET time-limits as %s answers %i', async (role, status) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/vets/time-limits', headers: w.headers[role] });
    expect(response.statusCode).toBe(status);
  });

  it('lists every profile of a vet in id order, for a manager and for the vet', async () => {
    const expected = [
      { id: w.otherVet.profile.id, name: 'Video consultation' },
      { id: w.otherVetSecondProfile.id, name: 'Home visits' },
    ];
    for (const role of ['otherVet', 'manager'] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/vets/calendarprofiles/${w.otherVet.vet.id}`,
        headers: w.headers[role],
      });
      expect(response.statusCode, role).toBe(200);
      expect(response.json(), role).toStrictEqual(expected);
    }
  });

  it('answers 404 for an unknown vet id, a user id that is not a vet id, and a removed vet', async () => {
    const get = (vetId: number) =>
      t.app.inject({ method: 'GET', url: `/api/vets/calendarprofiles/${vetId}`, headers: w.headers.manager });
    expect((await get(9999)).statusCode).toBe(404);
    expect((await get(2_147_483_647)).statusCode).toBe(404);
    // Rui's user id is no vet's id (vet ids are 1 and 2 here).
    expect(w.vet.user.id).not.toBe(w.vet.vet.id);
    expect((await get(w.vet.user.id)).statusCode).toBe(404);

    await t.db.update(users).set({ active: false }).where(eq(users.id, w.otherVet.user.id));
    expect((await get(w.otherVet.vet.id)).statusCode).toBe(404);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/vets/availability/${w.otherVet.vet.id}/${w.otherVet.profile.id}`,
      headers: w.headers.manager,
    });
    expect(profile.statusCode).toBe(404);
  });

  it('answers a customer 403 even for an unknown vet id (nothing to learn from the status)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/vets/calendarprofiles/9999',
      headers: w.headers.customer,
    });
    expect(response.statusCode).toBe(403);
  });

  it.each(['1e3', '01', '0', '-1', '1.0', 'abc', '2147483648', '%201'])(
    'refuses the vet id %j with 400 on every availability route',
    async (id) => {
      const urls = [
        `/api/vets/calendarprofiles/${id}`,
        `/api/vets/availability/${id}/${w.vet.profile.id}`,
        `/api/vets/availability/${w.vet.vet.id}/${id}`,
      ];
      for (const url of urls) {
        const response = await t.app.inject({ method: 'GET', url, headers: w.headers.manager });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().error, url).toBe('validation_failed');
      }
      const patch = await t.app.inject({
        method: 'PATCH',
        url: `/api/vets/availability/${w.vet.vet.id}/${id}`,
        headers: w.headers.manager,
        payload: profileBody(),
      });
      expect(patch.statusCode).toBe(400);
    },
  );
});

describe('GET /api/vets/availability/{vet_id}/{profile_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (vetId: number, profileId: number, headers = w.headers.manager) =>
    t.app.inject({ method: 'GET', url: `/api/vets/availability/${vetId}/${profileId}`, headers });

  it('answers a default profile with the docs/product-rules.md#entities shape and defaults', async () => {
    const response = await get(w.vet.vet.id, w.vet.profile.id, w.headers.vet);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual(defaultProfile(w.vet.profile.id));
  });

  it('answers 404 for another vet’s profile under this vet’s id, and for an unknown profile', async () => {
    for (const role of ['vet', 'manager'] as const) {
      expect((await get(w.vet.vet.id, w.otherVet.profile.id, w.headers[role])).statusCode, role).toBe(404);
      expect((await get(w.vet.vet.id, w.otherVetSecondProfile.id, w.headers[role])).statusCode, role).toBe(404);
      expect((await get(w.vet.vet.id, 9999, w.headers[role])).statusCode, role).toBe(404);
    }
    // The other vet's own id with their profile is still refused to Rui (not his availability).
    expect((await get(w.otherVet.vet.id, w.otherVet.profile.id, w.headers.vet)).statusCode).toBe(404);
    expect((await get(w.otherVet.vet.id, w.otherVet.profile.id, w.headers.manager)).statusCode).toBe(200);
  });

  it('names stored ISO weekdays in lowercase English, Monday first, and sorts dates', async () => {
    const { vet, profile } = await buildVet(t.db, {
      profile: {
        timezone: 'Asia/Tokyo',
        daySchedules: [
          { dayOfWeek: 7, workingIntervals: [{ start: '10:00', end: '12:00' }] },
          { dayOfWeek: 3, workingIntervals: [{ start: '09:00', end: '17:00' }] },
          { dayOfWeek: 1, workingIntervals: [{ start: '08:00', end: '09:00' }] },
          { dayOfWeek: 6, workingIntervals: [] },
        ],
        availabilityIntervals: [
          { dateStartInclusive: '2026-05-01', hours: [] },
          { dateStartInclusive: '2026-01-15', hours: [{ start: '13:00', end: '14:00' }] },
        ],
      },
    });
    const response = await get(vet.id, profile.id);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.workHours).toStrictEqual({
      timezone: 'Asia/Tokyo',
      daySchedules: [
        { dayOfWeek: 'monday', workingIntervals: [{ start: '08:00', end: '09:00' }] },
        { dayOfWeek: 'wednesday', workingIntervals: [{ start: '09:00', end: '17:00' }] },
        { dayOfWeek: 'saturday', workingIntervals: [] },
        { dayOfWeek: 'sunday', workingIntervals: [{ start: '10:00', end: '12:00' }] },
      ],
    });
    expect(body.availabilityIntervals).toStrictEqual({
      intervals: [
        { dateStartInclusive: '2026-01-15', hours: [{ start: '13:00', end: '14:00' }] },
        { dateStartInclusive: '2026-05-01', hours: [] },
      ],
    });
  });
});

describe('PATCH /api/vets/availability/{vet_id}/{profile_id}', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const patch = (payload: unknown, headers = w.headers.vet, vetId = w.vet.vet.id, profileId = w.vet.profile.id) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/vets/availability/${vetId}/${profileId}`,
      headers,
      payload: payload as Record<string, unknown>,
    });
  const get = (vetId = w.vet.vet.id, profileId = w.vet.profile.id, headers = w.headers.vet) =>
    t.app.inject({ method: 'GET', url: `/api/vets/availability/${vetId}/${profileId}`, headers });
  const storedProfile = async (id: number) =>
    (await t.db.select().from(availabilityProfiles).where(eq(availabilityProfiles.id, id)))[0]!;

  it('lets the vet save their own profile: GET then answers exactly what was sent', async () => {
    const response = await patch(profileBody());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual({ id: w.vet.profile.id, ...profileBody() });

    const after = await get();
    expect(after.statusCode).toBe(200);
    expect(after.json()).toStrictEqual({ id: w.vet.profile.id, ...profileBody() });
    // Stored with ISO weekday numbers; the profile list keeps its new name.
    const row = await storedProfile(w.vet.profile.id);
    expect(row.daySchedules.map((day) => day.dayOfWeek)).toEqual([1, 4, 7]);
    expect(row.timezone).toBe('Atlantic/Azores');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/vets/calendarprofiles/${w.vet.vet.id}`,
      headers: w.headers.vet,
    });
    expect(list.json()).toStrictEqual([{ id: w.vet.profile.id, name: 'Morning clinic' }]);
  });

  it('answers intervals sorted by start and days Monday first, whatever order they were sent in', async () => {
    const sent = profileBody({
      days: [
        { dayOfWeek: 'friday', workingIntervals: [{ start: '15:00', end: '16:00' }] },
        {
          dayOfWeek: 'tuesday',
          workingIntervals: [
            { start: '14:00', end: '18:00' },
            { start: '08:30', end: '09:00' },
            { start: '09:00', end: '13:00' },
          ],
        },
      ],
      dates: [
        { dateStartInclusive: '2026-06-10', hours: [] },
        {
          dateStartInclusive: '2026-06-01',
          hours: [
            { start: '16:00', end: '17:00' },
            { start: '10:00', end: '11:00' },
          ],
        },
      ],
    });
    const expected = {
      id: w.vet.profile.id,
      ...profileBody({
        days: [
          {
            dayOfWeek: 'tuesday',
            workingIntervals: [
              { start: '08:30', end: '09:00' },
              { start: '09:00', end: '13:00' },
              { start: '14:00', end: '18:00' },
            ],
          },
          { dayOfWeek: 'friday', workingIntervals: [{ start: '15:00', end: '16:00' }] },
        ],
        dates: [
          {
            dateStartInclusive: '2026-06-01',
            hours: [
              { start: '10:00', end: '11:00' },
              { start: '16:00', end: '17:00' },
            ],
          },
          { dateStartInclusive: '2026-06-10', hours: [] },
        ],
      }),
    };
    const response = await patch(sent);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toStrictEqual(expected);
    expect((await get()).json()).toStrictEqual(expected);
  });

  it('fills the defaults of omitted optional fields (P10W, Vet appointments, startConference true)', async () => {
    const { timeAvailableFor, description, startConference, subject, context, ...minimal } = profileBody();
    void [timeAvailableFor, description, startConference, subject, context];
    const response = await patch(minimal);
    expect(response.statusCode).toBe(200);
    expect((await get()).json()).toStrictEqual({
      id: w.vet.profile.id,
      ...minimal,
      timeAvailableFor: 'P10W',
      description: 'Vet appointments',
      subject: '',
      context: '',
      startConference: true,
    });
  });

  it('clears the hours when an empty pattern is sent', async () => {
    expect((await patch(profileBody())).statusCode).toBe(200);
    const cleared = profileBody({ days: [], dates: [] });
    expect((await patch(cleared)).statusCode).toBe(200);
    expect((await get()).json()).toStrictEqual({ id: w.vet.profile.id, ...cleared });
  });

  it('ignores an id in the body: the path names the profile', async () => {
    const response = await patch({ ...profileBody(), id: w.otherVet.profile.id });
    expect(response.statusCode).toBe(200);
    expect(response.json().id).toBe(w.vet.profile.id);
    expect((await storedProfile(w.otherVet.profile.id)).name).toBe('Video consultation');
  });

  it('lets any manager edit any vet’s profile, the vet then sees it', async () => {
    const byManager = await patch(profileBody({ name: 'Set by Marta' }), w.headers.manager);
    expect(byManager.statusCode).toBe(200);
    expect((await get()).json()).toMatchObject({ name: 'Set by Marta' });

    const second = profileBody({ name: 'Sara’s home visits', timezone: 'Europe/Madrid' });
    const byOtherManager = await patch(second, w.headers.otherManager, w.otherVet.vet.id, w.otherVetSecondProfile.id);
    expect(byOtherManager.statusCode).toBe(200);
    const seen = await get(w.otherVet.vet.id, w.otherVetSecondProfile.id, w.headers.otherVet);
    expect(seen.json()).toStrictEqual({ id: w.otherVetSecondProfile.id, ...second });
    // Sara's first profile is untouched.
    const first = await get(w.otherVet.vet.id, w.otherVet.profile.id, w.headers.otherVet);
    expect(first.json()).toStrictEqual(defaultProfile(w.otherVet.profile.id));
  });

  it('refuses another vet with 404 and changes nothing', async () => {
    const before = await storedProfiles(t);
    const response = await patch(profileBody({ name: 'Hacked' }), w.headers.otherVet);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(errorBody('not_found'));
    expect(await storedProfiles(t)).toEqual(before);
  });

  it('refuses a customer with 403 and no token with 401, changing nothing', async () => {
    const before = await storedProfiles(t);
    expect((await patch(profileBody(), w.headers.customer)).statusCode).toBe(403);
    expect((await patch(profileBody(), {})).statusCode).toBe(401);
    expect((await patch(profileBody(), { authorization: 'Bearer not-a-token' })).statusCode).toBe(401);
    expect(await storedProfiles(t)).toEqual(before);
  });

  it('answers 404 for another vet’s profile under this vet’s id, for vet and manager, changing nothing', async () => {
    const before = await storedProfiles(t);
    for (const role of ['vet', 'manager'] as const) {
      const response = await patch(profileBody(), w.headers[role], w.vet.vet.id, w.otherVet.profile.id);
      expect(response.statusCode, role).toBe(404);
      expect((await patch(profileBody(), w.headers[role], w.vet.vet.id, 9999)).statusCode, role).toBe(404);
    }
    // Rui's own profile under Sara's vet id is no better.
    expect((await patch(profileBody(), w.headers.vet, w.otherVet.vet.id, w.vet.profile.id)).statusCode).toBe(404);
    expect((await patch(profileBody(), w.headers.manager, w.otherVet.vet.id, w.vet.profile.id)).statusCode).toBe(404);
    expect(await storedProfiles(t)).toEqual(before);
  });

  it.each([
    [
      'touching intervals (09:00–12:00 and 12:00–13:00)',
      monday({ start: '09:00', end: '12:00' }, { start: '12:00', end: '13:00' }),
    ],
    ['an end at 24:00', monday({ start: '20:00', end: '24:00' })],
    ['a whole day', monday({ start: '00:00', end: '24:00' })],
  ])('accepts %s', async (_label, days) => {
    const body = profileBody({ days });
    const response = await patch(body);
    expect(response.statusCode).toBe(200);
    expect((await get()).json()).toStrictEqual({ id: w.vet.profile.id, ...body });
  });

  const invalid: [string, ReturnType<typeof profileBody>, Record<string, string>][] = [
    [
      'an end before its start',
      profileBody({ days: monday({ start: '09:00', end: '12:00' }, { start: '15:00', end: '14:00' }) }),
      { 'workHours.daySchedules.0.workingIntervals.1.end': 'end_before_start' },
    ],
    [
      'an empty interval',
      profileBody({ days: monday({ start: '09:00', end: '09:00' }) }),
      { 'workHours.daySchedules.0.workingIntervals.0.end': 'end_before_start' },
    ],
    [
      'a date interval ending before it starts',
      profileBody({ dates: [{ dateStartInclusive: '2026-03-02', hours: [{ start: '11:00', end: '10:00' }] }] }),
      { 'availabilityIntervals.intervals.0.hours.0.end': 'end_before_start' },
    ],
    [
      'overlapping intervals of one day',
      profileBody({
        days: [
          { dayOfWeek: 'monday', workingIntervals: [] },
          {
            dayOfWeek: 'tuesday',
            workingIntervals: [
              { start: '09:00', end: '12:00' },
              { start: '11:59', end: '13:00' },
            ],
          },
        ],
      }),
      { 'workHours.daySchedules.1.workingIntervals': 'overlap' },
    ],
    [
      'overlapping hours of one date',
      profileBody({
        dates: [
          {
            dateStartInclusive: '2026-03-02',
            hours: [
              { start: '14:00', end: '18:00' },
              { start: '09:00', end: '15:00' },
            ],
          },
        ],
      }),
      { 'availabilityIntervals.intervals.0.hours': 'overlap' },
    ],
    [
      'the same date twice',
      profileBody({
        dates: [
          { dateStartInclusive: '2026-03-02', hours: [{ start: '09:00', end: '12:00' }] },
          { dateStartInclusive: '2026-03-02', hours: [{ start: '10:00', end: '11:00' }] },
        ],
      }),
      { 'availabilityIntervals.intervals': 'invalid_value' },
    ],
    [
      "'25:00'",
      profileBody({ days: monday({ start: '09:00', end: '25:00' }) }),
      { 'workHours.daySchedules.0.workingIntervals.0.end': 'invalid_format' },
    ],
    [
      "'9:00'",
      profileBody({ days: monday({ start: '9:00', end: '12:00' }) }),
      { 'workHours.daySchedules.0.workingIntervals.0.start': 'invalid_format' },
    ],
    [
      'an unknown dayOfWeek',
      profileBody({ days: [{ dayOfWeek: 'funday', workingIntervals: [] }] }),
      { 'workHours.daySchedules.0.dayOfWeek': 'invalid_value' },
    ],
    [
      'a capitalised dayOfWeek',
      profileBody({ days: [{ dayOfWeek: 'Monday', workingIntervals: [] }] }),
      { 'workHours.daySchedules.0.dayOfWeek': 'invalid_value' },
    ],
    [
      'the same weekday twice',
      profileBody({
        days: [
          { dayOfWeek: 'monday', workingIntervals: [{ start: '09:00', end: '12:00' }] },
          { dayOfWeek: 'monday', workingIntervals: [{ start: '14:00', end: '18:00' }] },
        ],
      }),
      { 'workHours.daySchedules': 'invalid_value' },
    ],
    ["timezone 'Mars/Olympus'", profileBody({ timezone: 'Mars/Olympus' }), { 'workHours.timezone': 'invalid_value' }],
    ["timeAvailableFor 'P10X'", profileBody({ timeAvailableFor: 'P10X' }), { timeAvailableFor: 'invalid_format' }],
    [
      "dateStartInclusive '2026-02-30'",
      profileBody({ dates: [{ dateStartInclusive: '2026-02-30', hours: [] }] }),
      { 'availabilityIntervals.intervals.0.dateStartInclusive': 'invalid_format' },
    ],
    ['durationMinutes 3', profileBody({ durationMinutes: 3 }), { durationMinutes: 'too_small' }],
    ['availabilityStep 481', profileBody({ availabilityStep: 481 }), { availabilityStep: 'too_big' }],
    ['an empty name', profileBody({ name: '  ' }), { name: 'too_small' }],
  ];

  it.each(invalid)('refuses %s with 400 and the field code, changing nothing', async (_label, body, fields) => {
    expect((await patch(profileBody())).statusCode).toBe(200);
    const before = await storedProfiles(t);
    for (const role of ['vet', 'manager'] as const) {
      const response = await patch(body, w.headers[role]);
      expect(response.statusCode, role).toBe(400);
      expect(response.json(), role).toStrictEqual({
        error: 'validation_failed',
        message: expect.any(String),
        fields,
      });
    }
    expect(await storedProfiles(t)).toEqual(before);
  });

  it('reports missing fields as required, and refuses a body that is not an object', async () => {
    const empty = await patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({
      name: 'required',
      durationMinutes: 'required',
      availabilityStep: 'required',
      location: 'required',
      workHours: 'required',
      availabilityIntervals: 'required',
    });
    expect((await patch([profileBody()])).statusCode).toBe(400);
  });
});

describe('GET /api/vets/time-limits (docs/product-rules.md#entities Time limits)', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('answers 49 times from 00:00 to 24:00 every 30 minutes, ids 1 to 49', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/vets/time-limits', headers: w.headers.vet });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ time_limit_id: number; time_limit: string }[]>();
    expect(body).toHaveLength(49);
    expect(body.slice(0, 4)).toStrictEqual([
      { time_limit_id: 1, time_limit: '00:00' },
      { time_limit_id: 2, time_limit: '00:30' },
      { time_limit_id: 3, time_limit: '01:00' },
      { time_limit_id: 4, time_limit: '01:30' },
    ]);
    expect(body.at(-1)).toStrictEqual({ time_limit_id: 49, time_limit: '24:00' });
    body.forEach((entry, index) => {
      expect(entry.time_limit_id).toBe(index + 1);
      const minutes = index * 30;
      expect(entry.time_limit).toBe(
        `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
      );
    });
  });

  it('answers the same list to every logged-in role', async () => {
    const answers = [];
    for (const role of ['customer', 'vet', 'manager'] as const) {
      const response = await t.app.inject({ method: 'GET', url: '/api/vets/time-limits', headers: w.headers[role] });
      expect(response.statusCode, role).toBe(200);
      answers.push(response.json());
    }
    expect(answers[1]).toStrictEqual(answers[0]);
    expect(answers[2]).toStrictEqual(answers[0]);
  });

  it('answers 401 without a token or with a bad one', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/vets/time-limits' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual(errorBody('unauthorized'));
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/vets/time-limits',
      headers: { authorization: 'Bearer nope' },
    });
    expect(bad.statusCode).toBe(401);
  });
});

describe('a vet created by a manager (POST /api/users/vet) has one default profile', () => {
  let t: TestApp;
  let w: World;
  beforeEach(async () => {
    t = await buildTestApp();
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  it('lists exactly one default profile, and the new vet can edit it', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users/vet',
      headers: w.headers.manager,
      payload: {
        name: 'Inês Costa',
        email: 'ines@clinic.test',
        password: 'new-secret-42',
        confirmation: 'new-secret-42',
        phone: '214000000',
        specialty: 'Cardiology',
      },
    });
    expect(created.statusCode).toBe(201);
    const view = await t.app.inject({
      method: 'GET',
      url: '/api/users/vet/byemail/ines@clinic.test',
      headers: w.headers.manager,
    });
    expect(view.statusCode).toBe(200);
    const vetId = view.json<{ vet_id: number }>().vet_id;

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/vets/calendarprofiles/${vetId}`,
      headers: w.headers.manager,
    });
    expect(list.statusCode).toBe(200);
    const profiles = list.json<{ id: number; name: string }[]>();
    expect(profiles).toStrictEqual([{ id: expect.any(Number), name: 'Video consultation' }]);
    const profileId = profiles[0]!.id;

    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/vets/availability/${vetId}/${profileId}`,
      headers: w.headers.manager,
    });
    expect(profile.json()).toStrictEqual(defaultProfile(profileId));

    const { headers } = await t.loginAs('ines@clinic.test', 'new-secret-42');
    const saved = await t.app.inject({
      method: 'PATCH',
      url: `/api/vets/availability/${vetId}/${profileId}`,
      headers,
      payload: profileBody(),
    });
    expect(saved.statusCode).toBe(200);
    // Rui cannot see the newcomer's profiles.
    const foreign = await t.app.inject({
      method: 'GET',
      url: `/api/vets/calendarprofiles/${vetId}`,
      headers: w.headers.vet,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('the demo seed’s availability', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
    expect(await seedDemoData(t.db)).toBe(true);
  });
  afterEach(async () => {
    await t.close();
  });

  /** Logs in as the demo manager and answers a demo vet's data, profile list and first profile. */
  async function demoVet(email: string) {
    const { headers } = await t.loginAs('manager@vetcall.test');
    const view = await t.app.inject({ method: 'GET', url: `/api/users/vet/byemail/${email}`, headers });
    expect(view.statusCode).toBe(200);
    const vet = view.json<{ vet_id: number; calendar_linked: boolean }>();
    const list = await t.app.inject({ method: 'GET', url: `/api/vets/calendarprofiles/${vet.vet_id}`, headers });
    expect(list.statusCode).toBe(200);
    const profiles = list.json<{ id: number; name: string }[]>();
    expect(profiles).toHaveLength(1);
    const profile = await t.app.inject({
      method: 'GET',
      url: `/api/vets/availability/${vet.vet_id}/${profiles[0]!.id}`,
      headers,
    });
    expect(profile.statusCode).toBe(200);
    return { vet, profile: profile.json() };
  }

  it('vet@vetcall.test works Monday to Friday 09:00–13:00 and 14:00–18:00 in Europe/Lisbon, calendar linked', async () => {
    const { vet, profile } = await demoVet('vet@vetcall.test');
    expect(vet.calendar_linked).toBe(true);
    const workingIntervals = [
      { start: '09:00', end: '13:00' },
      { start: '14:00', end: '18:00' },
    ];
    expect(profile.workHours).toStrictEqual({
      timezone: 'Europe/Lisbon',
      daySchedules: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((dayOfWeek) => ({
        dayOfWeek,
        workingIntervals,
      })),
    });
    expect(profile).toMatchObject({
      durationMinutes: 30,
      availabilityStep: 30,
      timeAvailableFor: 'P10W',
      description: 'Vet appointments',
      startConference: true,
      availabilityIntervals: { intervals: [] },
    });
  });

  it('vet2@vetcall.test works another pattern in America/Sao_Paulo, calendar linked', async () => {
    const { vet, profile } = await demoVet('vet2@vetcall.test');
    const first = await demoVet('vet@vetcall.test');
    expect(vet.calendar_linked).toBe(true);
    expect(profile.workHours.timezone).toBe('America/Sao_Paulo');
    expect(profile.workHours.daySchedules).not.toEqual(first.profile.workHours.daySchedules);
    const morning = [{ start: '08:00', end: '12:00' }];
    const afternoonAndEvening = [
      { start: '13:00', end: '17:00' },
      { start: '19:00', end: '21:00' },
    ];
    expect(profile.workHours.daySchedules).toStrictEqual([
      { dayOfWeek: 'monday', workingIntervals: morning },
      { dayOfWeek: 'tuesday', workingIntervals: afternoonAndEvening },
      { dayOfWeek: 'wednesday', workingIntervals: morning },
      { dayOfWeek: 'thursday', workingIntervals: afternoonAndEvening },
      { dayOfWeek: 'friday', workingIntervals: morning },
      { dayOfWeek: 'saturday', workingIntervals: [{ start: '09:00', end: '12:00' }] },
    ]);
    expect(profile).toMatchObject({ durationMinutes: 45, availabilityStep: 15 });
  });

  it('each demo vet can read their own profile, not the other’s', async () => {
    const first = await demoVet('vet@vetcall.test');
    const second = await demoVet('vet2@vetcall.test');
    const { headers } = await t.loginAs('vet@vetcall.test');
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/vets/calendarprofiles/${first.vet.vet_id}`,
      headers,
    });
    expect(own.statusCode).toBe(200);
    const other = await t.app.inject({
      method: 'GET',
      url: `/api/vets/availability/${second.vet.vet_id}/${second.profile.id}`,
      headers,
    });
    expect(other.statusCode).toBe(404);
  });
});
