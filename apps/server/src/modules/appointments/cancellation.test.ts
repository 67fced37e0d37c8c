import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { appointments, calendarEvents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  PASSWORD,
} from '../../../test/appointment-world.ts';
import { invitationOf } from '../../../test/mailed-invitation.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';

/** Wednesday 18 November 2026, 12:00 UTC: Ana's confirmed appointment is on Friday 20th at 11:00 UTC. */
const NOW = '2026-11-18T12:00:00Z';
const HOUR_MS = 60 * 60 * 1000;

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});

describe('POST /api/appointments/{id}/cancel', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    w = await buildAppointmentWorld(t, { confirmed: { paymentProvider: 'builtin', calendarSequence: 1 } });
    await t.db.insert(calendarEvents).values({
      eventId: 'booking-ana-rui',
      vetUserId: w.rui.user.id,
      customerUserId: w.ana.user.id,
      kind: 'booking',
      startsAt: w.confirmed.schedule,
      endsAt: new Date(w.confirmed.schedule.getTime() + 30 * 60_000),
      appointmentId: w.confirmed.id,
    });
  });
  afterEach(async () => {
    await t.close();
  });

  const cancel = (id: number, headers: Headers, payload?: object) =>
    t.app.inject({ method: 'POST', url: `/api/appointments/${id}/cancel`, headers, payload });
  // Sessions end after a while idle: after moving the clock, log in again.
  const freshHeaders = async (email: string) => (await t.loginAs(email, PASSWORD)).headers;
  const rowOf = async (id: number) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
  const liveBookings = async (id: number) =>
    (await t.db.select().from(calendarEvents).where(eq(calendarEvents.appointmentId, id))).filter(
      (event) => event.releasedAt === null,
    );

  it('lets the customer cancel their own more than 24 hours ahead: refunded, time freed, both told', async () => {
    const response = await cancel(w.confirmed.id, w.headers.customer, { reason: '  Bobi is better  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ appointment_status_key: 'TK_Canceled', viewer: 'customer' });
    expect(await rowOf(w.confirmed.id)).toMatchObject({
      status: 'TK_Canceled',
      canceledAt: new Date(NOW),
      canceledByUserId: w.ana.user.id,
      cancelReason: 'Bobi is better',
      refundStatus: 'refunded',
      refundedAt: new Date(NOW),
      calendarSequence: 2,
    });
    expect(await liveBookings(w.confirmed.id)).toEqual([]);

    const toAna = smtp.received.filter((mail) => mail.envelopeTo.includes('ana@example.test'));
    const toRui = smtp.received.filter((mail) => mail.envelopeTo.includes('rui@clinic.test'));
    expect([toAna.length, toRui.length]).toEqual([1, 1]);
    expect(toAna[0]!.subject).toBe('Appointment cancelled: Bobi, Friday, 20 November 2026 at 11:00 (Europe/Lisbon)');
    expect(toAna[0]!.text).toContain('Reason: Bobi is better');
    expect(toAna[0]!.text).toMatch(/€21\.25 paid will be refunded in full/);
    expect(toRui[0]!.subject).toMatch(/^Consulta cancelada: Bobi/);
    const forAna = invitationOf(toAna[0]!);
    expect(forAna).toMatchObject({
      method: 'CANCEL',
      uid: `appointment-${w.confirmed.id}@vetcall.test`,
      status: 'CANCELLED',
      sequence: 2,
      organizer: 'mailto:no-reply@vetcall.test',
      attendee: 'mailto:ana@example.test',
    });
    expect(invitationOf(toRui[0]!)).toMatchObject({ method: 'CANCEL', attendee: 'mailto:rui@clinic.test' });
  });

  it('cancels a customer’s appointment within 24 hours without a refund, and refuses once it started', async () => {
    clock.set(new Date(w.confirmed.schedule.getTime() - 2 * HOUR_MS));
    const late = await cancel(w.confirmed.id, await freshHeaders('ana@example.test'));
    expect(late.statusCode).toBe(200);
    expect((await rowOf(w.confirmed.id)).refundStatus).toBe('none');
    const toAna = smtp.received.find((mail) => mail.envelopeTo.includes('ana@example.test'))!;
    expect(toAna.text).toContain('less than 24 hours before the start');

    clock.set(w.requested.schedule);
    const started = await cancel(w.requested.id, await freshHeaders('bruno@example.test'));
    expect([started.statusCode, started.json().error]).toEqual([409, 'cancellation_closed']);
  });

  it('lets the vet and a manager cancel until the end, always refunded', async () => {
    clock.set(new Date(w.confirmed.schedule.getTime() + 10 * 60_000));
    const byVet = await cancel(w.confirmed.id, await freshHeaders('rui@clinic.test'));
    expect(byVet.statusCode).toBe(200);
    expect(await rowOf(w.confirmed.id)).toMatchObject({ refundStatus: 'refunded', canceledByUserId: w.rui.user.id });

    clock.set(new Date(w.requested.schedule.getTime() + 31 * 60_000));
    const manager = await freshHeaders('boss@clinic.test');
    const tooLate = await cancel(w.requested.id, manager);
    expect([tooLate.statusCode, tooLate.json().error]).toEqual([409, 'cancellation_closed']);
    clock.set(new Date(w.requested.schedule.getTime() + 29 * 60_000));
    expect((await cancel(w.requested.id, manager)).statusCode).toBe(200);
  });

  it('answers 409 invalid_transition for a cancelled or completed appointment, changing nothing', async () => {
    expect((await cancel(w.confirmed.id, w.headers.customer)).statusCode).toBe(200);
    const again = await cancel(w.confirmed.id, w.headers.customer);
    expect([again.statusCode, again.json().error]).toEqual([409, 'invalid_transition']);
    await t.db.update(appointments).set({ status: 'TK_Completed' }).where(eq(appointments.id, w.requested.id));
    const completed = await cancel(w.requested.id, w.headers.otherVet);
    expect([completed.statusCode, completed.json().error]).toEqual([409, 'invalid_transition']);
    expect(smtp.received).toHaveLength(2);
  });

  it('answers 404 to anyone whose appointment it is not, and 401 without a session', async () => {
    for (const headers of [w.headers.otherCustomer, w.headers.otherVet]) {
      expect((await cancel(w.confirmed.id, headers)).statusCode).toBe(404);
    }
    expect((await cancel(w.confirmed.id, w.headers.anonymous)).statusCode).toBe(401);
    expect((await cancel(999_999, w.headers.manager)).statusCode).toBe(404);
    expect((await rowOf(w.confirmed.id)).status).toBe('TK_Confirmed');
  });

  it('cancels an appointment still waiting for its payment with nothing to refund and no mail', async () => {
    await t.db
      .update(appointments)
      .set({ status: 'TK_PendingPayment', pinCipher: null, customerPinHash: null, vetPinHash: null })
      .where(eq(appointments.id, w.confirmed.id));
    expect((await cancel(w.confirmed.id, w.headers.customer)).statusCode).toBe(200);
    expect(await rowOf(w.confirmed.id)).toMatchObject({ status: 'TK_Canceled', refundStatus: 'none' });
    expect(await liveBookings(w.confirmed.id)).toEqual([]);
    expect(smtp.received).toEqual([]);
  });

  it('refuses a reason over 500 characters with 400 and a field code', async () => {
    const response = await cancel(w.confirmed.id, w.headers.customer, { reason: 'x'.repeat(501) });
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ reason: 'too_long' });
    expect((await rowOf(w.confirmed.id)).status).toBe('TK_Confirmed');
  });
});
