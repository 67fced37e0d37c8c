import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, availabilityProfiles, calendarEvents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type AppointmentWorld, buildAppointmentWorld, type Headers, PINS } from '../../../test/appointment-world.ts';
import { invitationOf } from '../../../test/mailed-invitation.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { weekdays } from '../../../test/day-schedules.ts';

/** Wednesday 18 November 2026, 12:00 UTC: Ana's confirmed appointment with Rui is on Friday 20th at 11:00 UTC. */
const NOW = '2026-11-18T12:00:00Z';
const HOUR_MS = 60 * 60 * 1000;

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});

describe('the appointment moved and marked done', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    w = await buildAppointmentWorld(t, { confirmed: { paymentProvider: 'builtin', calendarSequence: 1 } });
    // Rui works weekdays 09:00–12:00 Lisbon (UTC in November), Sara 10:00–12:00 São Paulo (13:00–15:00 UTC).
    await t.db
      .update(availabilityProfiles)
      .set({ daySchedules: weekdays('09:00', '12:00') })
      .where(eq(availabilityProfiles.id, w.rui.profile.id));
    await t.db
      .update(availabilityProfiles)
      .set({ daySchedules: weekdays('10:00', '12:00') })
      .where(eq(availabilityProfiles.id, w.sara.profile.id));
    await t.db.insert(calendarEvents).values([
      {
        eventId: 'evt-ana-rui',
        vetUserId: w.rui.user.id,
        customerUserId: w.ana.user.id,
        profileId: w.rui.profile.id,
        kind: 'booking',
        startsAt: w.confirmed.schedule,
        endsAt: new Date(w.confirmed.schedule.getTime() + 30 * 60_000),
        appointmentId: w.confirmed.id,
      },
      {
        eventId: 'evt-bruno-sara',
        vetUserId: w.sara.user.id,
        customerUserId: w.bruno.user.id,
        profileId: w.sara.profile.id,
        kind: 'booking',
        startsAt: w.requested.schedule,
        endsAt: new Date(w.requested.schedule.getTime() + 30 * 60_000),
        appointmentId: w.requested.id,
      },
    ]);
  });
  afterEach(async () => {
    await t.close();
  });

  const hold = async (headers: Headers, start: string, vet = w.rui) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers,
      payload: { vet_id: vet.vet.id, profile_id: vet.profile.id, start },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ event_id: string }>().event_id;
  };
  const reschedule = (id: number, headers: Headers, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/appointments/${id}/reschedule`, headers, payload });
  const complete = (id: number, headers: Headers) =>
    t.app.inject({ method: 'POST', url: `/api/appointments/${id}/complete`, headers });
  const rowOf = async (id: number) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
  const eventsOf = (id: number) =>
    t.db.select().from(calendarEvents).where(eq(calendarEvents.appointmentId, id)).orderBy(calendarEvents.id);
  const mailTo = (address: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(address));

  describe('POST /api/appointments/{id}/reschedule', () => {
    it('moves the customer’s confirmed appointment: new time booked, old freed, PINs kept, both re-invited', async () => {
      const before = await rowOf(w.confirmed.id);
      await t.db
        .update(appointments)
        .set({ reminded24hAt: new Date(NOW) })
        .where(eq(appointments.id, w.confirmed.id));
      const eventId = await hold(w.headers.customer, '2026-11-23T10:00:00Z');
      const response = await reschedule(w.confirmed.id, w.headers.customer, { event_id: eventId });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        schedule: '2026-11-23T10:00:00.000Z',
        appointment_status_key: 'TK_Confirmed',
        customer_pin: PINS.customer,
        price: 2125,
        calendar_event_id: eventId,
        lifecycle: { vet_id: w.rui.vet.id, profile_id: w.rui.profile.id },
      });

      const after = await rowOf(w.confirmed.id);
      expect(after).toMatchObject({
        schedule: new Date('2026-11-23T10:00:00Z'),
        status: 'TK_Confirmed',
        pinCipher: before.pinCipher,
        priceCents: 2125,
        calendarSequence: 2,
        reminded24hAt: null,
      });
      const events = await eventsOf(w.confirmed.id);
      expect(events.map((event) => [event.eventId, event.kind, event.releasedAt?.toISOString() ?? null])).toEqual([
        ['evt-ana-rui', 'booking', NOW.replace('Z', '.000Z')],
        [eventId, 'booking', null],
      ]);
      expect(events[1]!.expiresAt).toBeNull();

      const [toAna] = mailTo('ana@example.test');
      const [toRui] = mailTo('rui@clinic.test');
      expect(smtp.received).toHaveLength(2);
      expect(toAna!.subject).toBe('Appointment moved: Bobi, now Monday, 23 November 2026 at 10:00 (Europe/Lisbon)');
      expect(toAna!.text).toContain('Ana Silva moved the video consultation of Bobi with Rui Costa from Friday');
      expect(toAna!.text).toContain(PINS.customer);
      expect(toAna!.text).not.toContain(PINS.vet);
      expect(toRui!.subject).toMatch(/^Consulta mudada: Bobi/);
      expect(toRui!.text).toContain(PINS.vet);
      for (const [mail, address] of [
        [toAna!, 'ana@example.test'],
        [toRui!, 'rui@clinic.test'],
      ] as const) {
        expect(invitationOf(mail)).toMatchObject({
          method: 'REQUEST',
          uid: `appointment-${w.confirmed.id}@vetcall.test`,
          sequence: 2,
          start: '2026-11-23T10:00:00Z',
          attendee: `mailto:${address}`,
        });
      }
      // The old time is free for anyone again; the new one is not.
      const slots = await t.app.inject({
        method: 'GET',
        url: `/api/vets/${w.rui.vet.id}/slots?from=2026-11-20&to=2026-11-23`,
        headers: w.headers.otherCustomer,
      });
      const starts = slots.json<{ start: string }[]>().map((slot) => slot.start);
      expect(starts).toContain('2026-11-20T11:00:00.000Z');
      expect(starts).not.toContain('2026-11-23T10:00:00.000Z');
    });

    it('sends a requested appointment back to its vet, asking to confirm the new time', async () => {
      const eventId = await hold(w.headers.otherCustomer, '2026-11-24T14:00:00Z', w.sara);
      const response = await reschedule(w.requested.id, w.headers.otherCustomer, { event_id: eventId });
      expect(response.statusCode).toBe(200);
      expect(await rowOf(w.requested.id)).toMatchObject({ status: 'TK_Requested', pinCipher: null });
      const [toSara] = mailTo('sara@clinic.test');
      const [toBruno] = mailTo('bruno@example.test');
      expect(toSara!.text).toContain(`http://vetcall.test/confirmappointment/${w.requested.hash}?lang=pt-BR`);
      expect(invitationOf(toSara!)).toBeNull();
      expect(toBruno!.text).toContain('O veterinário vai confirmar o novo horário');
      expect(toBruno!.text).toContain('http://vetcall.test/customer?mode=appointments&lang=pt');
    });

    it('closes for the customer 24 hours before the start; the vet and managers move it until the start', async () => {
      clock.set(new Date(w.confirmed.schedule.getTime() - 23 * HOUR_MS));
      const headers = {
        customer: (await t.loginAs('ana@example.test', 'secret-pass')).headers,
        vet: (await t.loginAs('rui@clinic.test', 'secret-pass')).headers,
        manager: (await t.loginAs('boss@clinic.test', 'secret-pass')).headers,
      };
      const customerHold = await hold(headers.customer, '2026-11-23T09:00:00Z');
      const refused = await reschedule(w.confirmed.id, headers.customer, { event_id: customerHold });
      expect([refused.statusCode, refused.json().error]).toEqual([409, 'reschedule_closed']);
      expect((await rowOf(w.confirmed.id)).schedule).toEqual(w.confirmed.schedule);

      const vetHold = await hold(headers.vet, '2026-11-23T10:00:00Z');
      expect((await reschedule(w.confirmed.id, headers.vet, { event_id: vetHold })).statusCode).toBe(200);
      const managerHold = await hold(headers.manager, '2026-11-23T11:00:00Z');
      const moved = await reschedule(w.confirmed.id, headers.manager, { event_id: managerHold });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ schedule: '2026-11-23T11:00:00.000Z', viewer: 'manager' });
      expect((await rowOf(w.confirmed.id)).calendarSequence).toBe(3);
      // Each move gave the previous time back: one live booking.
      expect((await eventsOf(w.confirmed.id)).filter((event) => event.releasedAt === null)).toHaveLength(1);
    });

    it('refuses a hold that is not the mover’s, lapsed, on another vet or of another length, changing nothing', async () => {
      const anasHold = await hold(w.headers.customer, '2026-11-23T09:00:00Z');
      const byOther = await reschedule(w.confirmed.id, w.headers.vet, { event_id: anasHold });
      expect([byOther.statusCode, byOther.json().error]).toEqual([409, 'hold_not_found']);
      expect(byOther.json().fields).toEqual({ event_id: 'invalid_value' });

      const onSara = await hold(w.headers.customer, '2026-11-24T14:00:00Z', w.sara);
      const otherVet = await reschedule(w.confirmed.id, w.headers.customer, { event_id: onSara });
      expect(otherVet.json().error).toBe('hold_not_found');

      await t.db
        .update(availabilityProfiles)
        .set({ durationMinutes: 60 })
        .where(eq(availabilityProfiles.id, w.rui.profile.id));
      const longer = await hold(w.headers.customer, '2026-11-23T10:00:00Z');
      const wrongLength = await reschedule(w.confirmed.id, w.headers.customer, { event_id: longer });
      expect([wrongLength.statusCode, wrongLength.json().fields]).toEqual([400, { event_id: 'invalid_value' }]);

      clock.set(new Date(clock.now().getTime() + 16 * 60_000));
      const headers = (await t.loginAs('ana@example.test', 'secret-pass')).headers;
      const lapsed = await reschedule(w.confirmed.id, headers, { event_id: anasHold });
      expect([lapsed.statusCode, lapsed.json().error]).toEqual([409, 'hold_expired']);

      expect(await rowOf(w.confirmed.id)).toMatchObject({ schedule: w.confirmed.schedule, calendarSequence: 1 });
      expect(smtp.received).toEqual([]);
    });

    it('answers 404 to whoever may not see it, 401 anonymous, 409 once cancelled, 400 without a hold', async () => {
      const eventId = await hold(w.headers.otherCustomer, '2026-11-23T09:00:00Z');
      expect((await reschedule(w.confirmed.id, w.headers.otherCustomer, { event_id: eventId })).statusCode).toBe(404);
      expect((await reschedule(w.confirmed.id, w.headers.otherVet, { event_id: eventId })).statusCode).toBe(404);
      expect((await reschedule(w.confirmed.id, w.headers.anonymous, { event_id: eventId })).statusCode).toBe(401);
      const missing = await reschedule(w.confirmed.id, w.headers.customer, {});
      expect([missing.statusCode, missing.json().fields]).toEqual([400, { event_id: 'required' }]);

      await t.app.inject({
        method: 'POST',
        url: `/api/appointments/${w.confirmed.id}/cancel`,
        headers: w.headers.customer,
      });
      const own = await hold(w.headers.customer, '2026-11-23T10:00:00Z');
      const after = await reschedule(w.confirmed.id, w.headers.customer, { event_id: own });
      expect([after.statusCode, after.json().error]).toEqual([409, 'invalid_transition']);
    });
  });

  describe('POST /api/appointments/{id}/complete', () => {
    it('lets the vet mark their confirmed appointment done once it has started', async () => {
      const early = await complete(w.confirmed.id, w.headers.vet);
      expect([early.statusCode, early.json().error]).toEqual([409, 'completion_too_early']);

      clock.set(new Date(w.confirmed.schedule.getTime() + 20 * 60_000));
      const vet = (await t.loginAs('rui@clinic.test', 'secret-pass')).headers;
      const response = await complete(w.confirmed.id, vet);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        appointment_status_key: 'TK_Completed',
        vet_pin: null,
        lifecycle: { completed_at: clock.now().toISOString(), can: { complete: { allowed: false } } },
      });
      expect(await rowOf(w.confirmed.id)).toMatchObject({ status: 'TK_Completed', completedAt: clock.now() });
      const again = await complete(w.confirmed.id, vet);
      expect([again.statusCode, again.json().error]).toEqual([409, 'invalid_transition']);
    });

    it('is the vet’s alone: customer and manager 403, another vet 404; a requested one 409', async () => {
      clock.set(new Date(w.confirmed.schedule.getTime() + 20 * 60_000));
      const login = async (email: string) => (await t.loginAs(email, 'secret-pass')).headers;
      expect((await complete(w.confirmed.id, await login('ana@example.test'))).statusCode).toBe(403);
      expect((await complete(w.confirmed.id, await login('boss@clinic.test'))).statusCode).toBe(403);
      expect((await complete(w.confirmed.id, await login('sara@clinic.test'))).statusCode).toBe(404);
      clock.set(new Date(w.requested.schedule.getTime() - 60_000));
      const requested = await complete(w.requested.id, await login('sara@clinic.test'));
      expect([requested.statusCode, requested.json().error]).toEqual([409, 'invalid_transition']);
      expect((await rowOf(w.confirmed.id)).status).toBe('TK_Confirmed');
    });
  });

  it('tells each reader what they may do now (GET byid lifecycle.can)', async () => {
    const view = async (headers: Headers) =>
      (await t.app.inject({ method: 'GET', url: `/api/appointments/byid/${w.confirmed.id}`, headers })).json()
        .lifecycle;
    expect((await view(w.headers.customer)).can).toEqual({
      cancel: { allowed: true, refund: true },
      reschedule: { allowed: true },
      complete: { allowed: false, reason: 'forbidden' },
    });
    expect((await view(w.headers.vet)).can.complete).toEqual({ allowed: false, reason: 'completion_too_early' });
    expect(await view(w.headers.manager)).toMatchObject({
      canceled_at: null,
      refund_status: null,
      vet_id: w.rui.vet.id,
    });
  });
});
