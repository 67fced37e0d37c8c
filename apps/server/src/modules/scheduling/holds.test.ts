import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOLD_MINUTES } from '@vetcall/shared/schemas/scheduling';
import { fixedClock } from '../../clock.ts';
import { buildManager, buildVet } from '../../demo-data/factories.ts';
import { calendarEvents, customers, sessions, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { releaseExpiredHolds } from './hold-release-job.ts';
import { weekdays } from '../../../test/day-schedules.ts';

/** Monday 12 January 2026, 10:10 in Lisbon (UTC+0 in winter). */
const NOW = '2026-01-12T10:10:00Z';
const HOLD_MS = HOLD_MINUTES * 60_000;

type Headers = Record<string, string>;

/** Customers straight into the tables with sessions of their own: no password hashing, no login calls. */
async function customersWithSessions(t: TestApp, count: number): Promise<{ userId: number; headers: Headers }[]> {
  const tag = randomBytes(4).toString('hex');
  const rows = await t.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        type: 'customer' as const,
        name: `Customer ${i}`,
        email: `customer-${tag}-${i}@example.test`,
        passwordHash: 'unused: these customers never log in',
      })),
    )
    .returning({ id: users.id });
  await t.db.insert(customers).values(rows.map((row) => ({ userId: row.id })));
  const now = t.context.clock.now();
  const tokens = rows.map(() => generateToken());
  await t.db.insert(sessions).values(
    rows.map((row, i) => ({
      userId: row.id,
      tokenHash: hashToken(tokens[i]!),
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + 7 * 86_400_000),
    })),
  );
  return rows.map((row, i) => ({ userId: row.id, headers: { authorization: `Bearer ${tokens[i]}` } }));
}

/**
 * A manager, Rui (Lisbon, weekdays 09:00–12:00, 30-minute slots), Sara (Lisbon, one-hour consultations
 * every 30 minutes on weekdays 14:00–16:00) and three customers.
 */
async function buildWorld(t: TestApp) {
  await buildManager(t.db, { email: 'boss@clinic.test', password: 'secret-pass' });
  const rui = await buildVet(t.db, {
    email: 'rui@clinic.test',
    password: 'secret-pass',
    profile: { timezone: 'Europe/Lisbon', daySchedules: weekdays('09:00', '12:00') },
  });
  const sara = await buildVet(t.db, {
    profile: {
      timezone: 'Europe/Lisbon',
      daySchedules: weekdays('14:00', '16:00'),
      durationMinutes: 60,
      availabilityStep: 30,
    },
  });
  const [ana, bia, caio] = await customersWithSessions(t, 3);
  return {
    rui,
    sara,
    ana: ana!,
    bia: bia!,
    caio: caio!,
    manager: (await t.loginAs('boss@clinic.test', 'secret-pass')).headers,
    vet: (await t.loginAs('rui@clinic.test', 'secret-pass')).headers,
  };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

describe('scheduling: holds', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const hold = (headers: Headers, start: string, vet = w.rui, payload: Record<string, unknown> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers,
      payload: { vet_id: vet.vet.id, profile_id: vet.profile.id, start, ...payload },
    });
  const release = (headers: Headers, eventId: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/scheduling/holds/${eventId}`, headers });
  const slotStarts = async (date: string, vet = w.rui) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/vets/${vet.vet.id}/slots?from=${date}&to=${date}`,
      headers: w.ana.headers,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ start: string }[]>().map((slot) => slot.start.slice(11, 16));
  };
  const withAvailability = async (compactDate: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/vets/withavailability/${compactDate}`,
        headers: w.ana.headers,
      })
    ).json();
  const storedEvents = () => t.db.select().from(calendarEvents).orderBy(asc(calendarEvents.id));

  describe('POST /api/scheduling/holds', () => {
    it('holds a free slot for 15 minutes: 201 with the event, stored for the customer', async () => {
      const response = await hold(w.ana.headers, '2026-01-13T09:30:00Z');
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toStrictEqual({
        event_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
        vet_id: w.rui.vet.id,
        start: '2026-01-13T09:30:00.000Z',
        end: '2026-01-13T10:00:00.000Z',
        expires_at: '2026-01-12T10:25:00.000Z',
      });
      const [row] = await storedEvents();
      expect(row).toMatchObject({
        eventId: body.event_id,
        vetUserId: w.rui.user.id,
        customerUserId: w.ana.userId,
        profileId: w.rui.profile.id,
        kind: 'hold',
        startsAt: new Date('2026-01-13T09:30:00Z'),
        endsAt: new Date('2026-01-13T10:00:00Z'),
        expiresAt: new Date(new Date(NOW).getTime() + HOLD_MS),
        releasedAt: null,
        appointmentId: null,
      });
    });

    it('accepts the start with an offset, and gives every hold its own random event id', async () => {
      const first = await hold(w.ana.headers, '2026-01-13T10:00:00+01:00');
      expect(first.statusCode).toBe(201);
      expect(first.json().start).toBe('2026-01-13T09:00:00.000Z');
      const second = await hold(w.ana.headers, '2026-01-13T10:00:00Z');
      expect(second.statusCode).toBe(201);
      expect(second.json().event_id).not.toBe(first.json().event_id);
    });

    it('removes the held slot from GET slots for everyone, and nothing else', async () => {
      expect(await slotStarts('2026-01-13')).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']);
      expect((await hold(w.ana.headers, '2026-01-13T10:00:00Z')).statusCode).toBe(201);
      expect(await slotStarts('2026-01-13')).toEqual(['09:00', '09:30', '10:30', '11:00', '11:30']);
      expect(await slotStarts('2026-01-13', w.sara)).toEqual(['14:00', '14:30', '15:00']);
    });

    it('blocks the overlapping slots of one-hour consultations every 30 minutes', async () => {
      expect((await hold(w.ana.headers, '2026-01-13T14:30:00Z', w.sara)).statusCode).toBe(201);
      expect(await slotStarts('2026-01-13', w.sara)).toEqual([]);
      for (const start of ['2026-01-13T14:00:00Z', '2026-01-13T14:30:00Z', '2026-01-13T15:00:00Z']) {
        const response = await hold(w.bia.headers, start, w.sara);
        expect(response.statusCode, start).toBe(409);
        expect(response.json(), start).toEqual({ error: 'slot_taken', message: expect.any(String) });
      }
    });

    it('drops a vet from withavailability when the hold takes their last slot of the date', async () => {
      const lastSlot = await buildVet(t.db, {
        profile: {
          timezone: 'Europe/Lisbon',
          availabilityIntervals: [{ dateStartInclusive: '2026-01-17', hours: [{ start: '15:00', end: '15:30' }] }],
        },
      });
      expect(await withAvailability('20260117')).toEqual([lastSlot.user.id]);
      expect((await hold(w.ana.headers, '2026-01-17T15:00:00Z', lastSlot)).statusCode).toBe(201);
      expect(await withAvailability('20260117')).toEqual([]);
      // Rui still has five slots on the 13th after one is held.
      expect((await hold(w.ana.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(201);
      expect(await withAvailability('20260113')).toEqual([w.rui.user.id, w.sara.user.id]);
    });

    it('ignores an expired hold before any job runs, and releases it in the transaction of a new hold', async () => {
      const first = await hold(w.ana.headers, '2026-01-13T11:00:00Z');
      expect(first.statusCode).toBe(201);
      clock.advance(HOLD_MS - 1);
      expect(await slotStarts('2026-01-13')).not.toContain('11:00');
      expect((await hold(w.bia.headers, '2026-01-13T11:00:00Z')).statusCode).toBe(409);

      clock.advance(1);
      // Expired: the slot is free again though the row is not yet released.
      expect(await slotStarts('2026-01-13')).toContain('11:00');
      expect((await storedEvents())[0]!.releasedAt).toBeNull();

      const second = await hold(w.bia.headers, '2026-01-13T11:00:00Z');
      expect(second.statusCode).toBe(201);
      const [old, fresh] = await storedEvents();
      expect(old).toMatchObject({ eventId: first.json().event_id, releasedAt: clock.now() });
      expect(fresh).toMatchObject({ eventId: second.json().event_id, customerUserId: w.bia.userId, releasedAt: null });
      expect(await slotStarts('2026-01-13')).not.toContain('11:00');
    });

    it('lets a customer hold at most 3 live slots; released or expired holds do not count', async () => {
      const starts = ['09:00', '09:30', '10:00', '10:30'].map((time) => `2026-01-13T${time}:00Z`);
      const held = [];
      for (const start of starts.slice(0, 3)) {
        const response = await hold(w.ana.headers, start);
        expect(response.statusCode).toBe(201);
        held.push(response.json().event_id as string);
      }
      const fourth = await hold(w.ana.headers, starts[3]!);
      expect(fourth.statusCode).toBe(409);
      expect(fourth.json().error).toBe('too_many_holds');
      // Nothing was written, and another customer is not affected.
      expect(await storedEvents()).toHaveLength(3);
      expect((await hold(w.bia.headers, '2026-01-13T11:00:00Z')).statusCode).toBe(201);

      expect((await release(w.ana.headers, held[0]!)).statusCode).toBe(204);
      expect((await hold(w.ana.headers, starts[3]!)).statusCode).toBe(201);
      expect((await hold(w.ana.headers, '2026-01-14T09:00:00Z')).json().error).toBe('too_many_holds');

      clock.advance(HOLD_MS);
      expect((await hold(w.ana.headers, '2026-01-14T09:00:00Z')).statusCode).toBe(201);
    });

    it('rate-limits hold requests to 30 per 15 minutes per customer', async () => {
      for (let i = 0; i < 30; i += 1) {
        expect((await hold(w.ana.headers, '2026-01-13T09:10:00Z')).statusCode).toBe(400);
      }
      const limited = await hold(w.ana.headers, '2026-01-13T09:00:00Z');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe('too_many_requests');
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await hold(w.bia.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(201);
      clock.advance(15 * 60_000);
      expect((await hold(w.ana.headers, '2026-01-13T09:30:00Z')).statusCode).toBe(201);
    });

    it.each([
      ['not a slot start', { start: '2026-01-13T09:10:00Z' }],
      ['outside working hours', { start: '2026-01-13T12:00:00Z' }],
      ['on a Saturday', { start: '2026-01-17T09:00:00Z' }],
      ['already past', { start: '2026-01-12T10:00:00Z' }],
      ['a second off', { start: '2026-01-13T09:00:01Z' }],
    ])('refuses a start %s: 400 with fields.start invalid_value', async (_, payload) => {
      const response = await hold(w.ana.headers, payload.start);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'validation_failed',
        message: expect.any(String),
        fields: { start: 'invalid_value' },
      });
      expect(await storedEvents()).toEqual([]);
    });

    it('refuses a start past one month from today (beyond it, 400 with fields.start too_big)', async () => {
      // Monday 12 January: Friday 13 February, 09:00 Lisbon is the last bookable morning.
      expect((await hold(w.ana.headers, '2026-02-13T09:00:00Z')).statusCode).toBe(201);
      const late = await hold(w.ana.headers, '2026-02-16T09:00:00Z');
      expect(late.statusCode).toBe(400);
      expect(late.json()).toMatchObject({ error: 'validation_failed', fields: { start: 'too_big' } });
    });

    it.each([
      ['start missing', { start: undefined }, 'start'],
      ['start not an instant', { start: 'tomorrow' }, 'start'],
      ['start without zone', { start: '2026-01-13T09:00:00' }, 'start'],
      ['start a date only', { start: '2026-01-13' }, 'start'],
      ['vet_id missing', { vet_id: undefined }, 'vet_id'],
      ['vet_id a string', { vet_id: '1' }, 'vet_id'],
      ['vet_id zero', { vet_id: 0 }, 'vet_id'],
      ['profile_id fractional', { profile_id: 1.5 }, 'profile_id'],
    ])('refuses a body with %s: 400 naming the field', async (_, payload, field) => {
      const response = await hold(w.ana.headers, '2026-01-13T09:00:00Z', w.rui, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('validation_failed');
      expect(Object.keys(response.json().fields)).toContain(field);
    });

    it('takes the vet’s first profile when the body names none', async () => {
      const response = await hold(w.ana.headers, '2026-01-13T09:00:00Z', w.rui, { profile_id: undefined });
      expect(response.statusCode).toBe(201);
      const [event] = await storedEvents();
      expect(event).toMatchObject({ profileId: w.rui.profile.id, vetUserId: w.rui.user.id });
    });

    it('answers 404 for an unknown vet, another vet’s profile and an inactive vet', async () => {
      const unknownVet = await hold(w.ana.headers, '2026-01-13T09:00:00Z', w.rui, { vet_id: 9999 });
      expect(unknownVet.statusCode).toBe(404);
      const foreignProfile = await hold(w.ana.headers, '2026-01-13T09:00:00Z', w.rui, {
        profile_id: w.sara.profile.id,
      });
      expect(foreignProfile.statusCode).toBe(404);
      await t.db.update(users).set({ active: false }).where(eq(users.id, w.rui.user.id));
      expect((await hold(w.ana.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(404);
    });

    it('is made in the actor\u2019s name: anonymous 401, a vet on another vet\u2019s calendar 403', async () => {
      expect((await hold({}, '2026-01-13T09:00:00Z')).statusCode).toBe(401);
      expect((await hold(w.vet, '2026-01-13T14:00:00Z', w.sara)).statusCode).toBe(403);
      expect(await storedEvents()).toEqual([]);
    });

    it('lets the vet hold on their own calendar and a manager on any (to move an appointment)', async () => {
      const byVet = await hold(w.vet, '2026-01-13T09:00:00Z');
      const byManager = await hold(w.manager, '2026-01-13T14:00:00Z', w.sara);
      expect([byVet.statusCode, byManager.statusCode]).toEqual([201, 201]);
      const stored = await storedEvents();
      expect(stored.map((event) => [event.vetUserId, event.customerUserId])).toEqual([
        [w.rui.user.id, w.rui.user.id],
        [w.sara.user.id, expect.any(Number)],
      ]);
      expect(stored[1]!.customerUserId).not.toBe(w.sara.user.id);
      // A staff hold never becomes a booking: only customers book (POST /api/appointments answers 403).
      expect(await slotStarts('2026-01-13')).not.toContain('09:00');
    });

    it('lets exactly one of 100 concurrent requests for one slot through; 99 get 409 slot_taken', async () => {
      const crowd = await customersWithSessions(t, 100);
      const responses = await Promise.all(crowd.map((customer) => hold(customer.headers, '2026-01-13T10:30:00Z')));
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 201)).toHaveLength(1);
      expect(statuses.filter((status) => status === 409)).toHaveLength(99);
      for (const response of responses.filter((candidate) => candidate.statusCode === 409)) {
        expect(response.json().error).toBe('slot_taken');
      }
      const winner = responses.find((response) => response.statusCode === 201)!.json();
      const live = await t.db.select().from(calendarEvents).where(isNull(calendarEvents.releasedAt));
      expect(live).toHaveLength(1);
      expect(live[0]!.eventId).toBe(winner.event_id);
      expect(await slotStarts('2026-01-13')).not.toContain('10:30');
    });
  });

  describe('DELETE /api/scheduling/holds/{event_id}', () => {
    it('lets the owner release the hold (204): the slot is free again, a second release is 404', async () => {
      const eventId = (await hold(w.ana.headers, '2026-01-13T09:00:00Z')).json().event_id as string;
      const response = await release(w.ana.headers, eventId);
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await storedEvents())[0]!.releasedAt).toEqual(clock.now());
      expect(await slotStarts('2026-01-13')).toContain('09:00');
      expect((await release(w.ana.headers, eventId)).statusCode).toBe(404);
      expect((await hold(w.bia.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(201);
    });

    it('answers anyone but its maker 404 and keeps the hold; anonymous 401', async () => {
      const eventId = (await hold(w.ana.headers, '2026-01-13T09:00:00Z')).json().event_id as string;
      expect((await release(w.bia.headers, eventId)).statusCode).toBe(404);
      expect((await release(w.vet, eventId)).statusCode).toBe(404);
      expect((await release(w.manager, eventId)).statusCode).toBe(404);
      expect((await release({}, eventId)).statusCode).toBe(401);
      expect((await storedEvents())[0]!.releasedAt).toBeNull();
    });

    it('answers 404 for an unknown id, a booking, and a hold an appointment has claimed', async () => {
      expect((await release(w.ana.headers, randomBytes(16).toString('base64url'))).statusCode).toBe(404);
      const booking = randomBytes(16).toString('base64url');
      await t.db.insert(calendarEvents).values({
        eventId: booking,
        vetUserId: w.rui.user.id,
        customerUserId: w.ana.userId,
        kind: 'booking',
        startsAt: new Date('2026-01-14T09:00:00Z'),
        endsAt: new Date('2026-01-14T09:30:00Z'),
      });
      expect((await release(w.ana.headers, booking)).statusCode).toBe(404);
      expect(await storedEvents()).toEqual([expect.objectContaining({ eventId: booking, releasedAt: null })]);
    });

    it.each(['short', 'has spaces in it and is long enough', 'a'.repeat(65)])(
      'refuses the malformed event id %j with 400',
      async (eventId) => {
        const response = await release(w.ana.headers, encodeURIComponent(eventId));
        expect(response.statusCode).toBe(400);
      },
    );
  });

  describe('releasing expired holds', () => {
    it('releaseExpiredHolds releases the expired holds only, in one go, and counts them', async () => {
      expect((await hold(w.ana.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(201);
      expect((await hold(w.bia.headers, '2026-01-13T14:00:00Z', w.sara)).statusCode).toBe(201);
      await t.db.insert(calendarEvents).values({
        eventId: randomBytes(16).toString('base64url'),
        vetUserId: w.rui.user.id,
        customerUserId: w.caio.userId,
        kind: 'booking',
        startsAt: new Date('2026-01-15T09:00:00Z'),
        endsAt: new Date('2026-01-15T09:30:00Z'),
      });
      expect(await releaseExpiredHolds(t.context)).toBe(0);

      clock.advance(5 * 60_000);
      expect((await hold(w.caio.headers, '2026-01-13T09:30:00Z')).statusCode).toBe(201);
      clock.advance(HOLD_MS - 5 * 60_000);
      expect(await releaseExpiredHolds(t.context)).toBe(2);
      expect(await releaseExpiredHolds(t.context)).toBe(0);

      const rows = await storedEvents();
      expect(rows.map((row) => [row.kind, row.customerUserId, row.releasedAt])).toEqual([
        ['hold', w.ana.userId, clock.now()],
        ['hold', w.bia.userId, clock.now()],
        ['booking', w.caio.userId, null],
        ['hold', w.caio.userId, null],
      ]);
    });

    it('is released by the job worker’s minutely task, run once across instances', async () => {
      expect((await hold(w.ana.headers, '2026-01-13T09:00:00Z')).statusCode).toBe(201);
      clock.advance(HOLD_MS);
      await t.context.jobs.tick();
      await t.context.jobs.drain();
      const live = await t.db
        .select()
        .from(calendarEvents)
        .where(and(eq(calendarEvents.kind, 'hold'), isNull(calendarEvents.releasedAt)));
      expect(live).toEqual([]);
    });
  });
});
