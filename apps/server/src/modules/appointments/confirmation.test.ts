import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../../demo-data/factories.ts';
import { appointments, calendarEvents } from '../../db/schema.ts';
import { jobs } from '../../db/jobs-schema.ts';
import { retryDelayMs } from '../../jobs/job-queue.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type ReceivedMail, startSmtpTestServer } from '../../../test/smtp-test-server.ts';
import { findAppointmentByPin, openPins, pinLookupHash } from './pins.ts';
import { CONFIRMATION_RATE_LIMITS } from './confirmation.service.ts';

/** Monday 12 January 2026, 10:10 UTC: 07:10 in São Paulo (UTC−3, no DST), 10:10 in Lisbon (UTC+0 in winter). */
const NOW = '2026-01-12T10:10:00Z';
/** The booked slot: Tuesday 20 January 2026, 13:00–13:30 UTC = 10:00 in São Paulo, 13:00 in Lisbon. */
const BOOKED = new Date('2026-01-20T13:00:00Z');
const SAO_PAULO_DIFF = -3 * 3600;
const VET_EMAIL = 'rui@clinic.test';

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});

/** Rui works from São Paulo and reads English; Ana lives in Lisbon and reads European Portuguese. */
async function buildWorld(t: TestApp) {
  const rui = await buildVet(t.db, {
    name: 'Rui Vet',
    email: VET_EMAIL,
    locale: 'en',
    profile: { timezone: 'America/Sao_Paulo' },
  });
  const ana = await buildCustomer(t.db, { name: 'Ana Dona', locale: 'pt', country: 'PT' });
  const bolinha = await buildPet(t.db, ana.customer.id, { name: 'Bolinha' });
  return { rui, ana, bolinha };
}
type World = Awaited<ReturnType<typeof buildWorld>>;

/** An appointment (booked from Lisbon, UTC+0) and its booking in the vet's calendar. */
async function bookedAppointment(
  t: TestApp,
  w: World,
  options: { status?: AppointmentStatus; schedule?: Date; withBooking?: boolean } = {},
) {
  const schedule = options.schedule ?? BOOKED;
  const appointment = await buildAppointment(
    t.db,
    { customerUserId: w.ana.user.id, petId: w.bolinha.id, vetUserId: w.rui.user.id },
    {
      status: options.status ?? 'TK_Requested',
      schedule,
      durationMinutes: 30,
      timezoneDiff: 0,
      description: 'Secret complaint: itchy ears',
      createdAt: t.context.clock.now(),
      statusDate: t.context.clock.now(),
    },
  );
  if (options.withBooking !== false) {
    await t.db.insert(calendarEvents).values({
      eventId: randomBytes(16).toString('base64url'),
      vetUserId: w.rui.user.id,
      customerUserId: w.ana.user.id,
      profileId: w.rui.profile.id,
      kind: 'booking',
      startsAt: schedule,
      endsAt: new Date(schedule.getTime() + 30 * 60_000),
      appointmentId: appointment.id,
    });
  }
  return appointment;
}

const rowOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
const bookingsOf = (t: TestApp, appointmentId: number) =>
  t.db
    .select({ startsAt: calendarEvents.startsAt, endsAt: calendarEvents.endsAt, releasedAt: calendarEvents.releasedAt })
    .from(calendarEvents)
    .where(eq(calendarEvents.appointmentId, appointmentId));

/** The .ics attachment of a mail, parsed by an independent parser. */
function calendarOf(mail: ReceivedMail) {
  const attachment = mail.attachments.find((part) => part.filename === 'appointment.ics');
  if (!attachment) throw new Error('no appointment.ics attached');
  expect(attachment.mimeType).toBe('text/calendar');
  const text =
    typeof attachment.content === 'string' ? attachment.content : new TextDecoder().decode(attachment.content);
  const vcalendar = new ICAL.Component(ICAL.parse(text));
  const [vevent] = vcalendar.getAllSubcomponents('vevent');
  // postal-mime hands calendar parts over with LF line ends (mailer.test.ts checks the CRLFs sent).
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  return {
    text: unfolded,
    method: vcalendar.getFirstPropertyValue('method'),
    vevent: vevent!,
    event: new ICAL.Event(vevent),
  };
}

describe('appointment confirmation', () => {
  let t: TestApp;
  let w: World;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    w = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const info = (hash: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'GET', url: `/api/appointments/info/${hash}`, remoteAddress });
  const confirm = (
    hash: string,
    payload: { email?: string; schedule?: string; timezone_diff?: number; hash?: string } = {},
    remoteAddress = '127.0.0.1',
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/api/appointments/confirm/${hash}`,
      payload: { hash, email: VET_EMAIL, schedule: '2026-01-20 10:00', timezone_diff: SAO_PAULO_DIFF, ...payload },
      remoteAddress,
    });

  describe('GET /api/appointments/info/{hash}', () => {
    it('answers what the page needs and nothing private', async () => {
      const appointment = await bookedAppointment(t, w);
      const response = await info(appointment.hash);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        hash: appointment.hash,
        schedule: '2026-01-20T13:00:00.000Z',
        duration_minutes: 30,
        status: 'TK_Requested',
        vet_name: 'Rui Vet',
        pet_name: 'Bolinha',
        vet_timezone: 'America/Sao_Paulo',
      });
      for (const secret of [VET_EMAIL, w.ana.user.email, 'Ana Dona', 'itchy ears']) {
        expect(response.body).not.toContain(secret);
      }
    });

    it('answers 404 for an unknown hash and 400 for a malformed one', async () => {
      expect((await info(randomBytes(16).toString('base64url'))).json()).toMatchObject({ error: 'not_found' });
      expect((await info('short')).statusCode).toBe(400);
    });

    it('limits failed lookups per IP', async () => {
      const appointment = await bookedAppointment(t, w);
      const { limit } = CONFIRMATION_RATE_LIMITS.infoFailuresPerIp;
      for (let i = 0; i < limit; i++) {
        expect((await info(randomBytes(16).toString('base64url'), '10.0.0.1')).statusCode).toBe(404);
      }
      const refused = await info(appointment.hash, '10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
      expect((await info(appointment.hash, '10.0.0.2')).statusCode).toBe(200);
    });
  });

  describe('POST /api/appointments/confirm/{hash}', () => {
    it('sends both PIN emails, once each, when the mail server that was down comes back', async () => {
      const appointment = await bookedAppointment(t, w);
      await smtp.stop();
      try {
        const response = await confirm(appointment.hash);
        expect(response.statusCode).toBe(200);
        expect(response.json()).toEqual({ appointment_pin: expect.stringMatching(/^\d{6}$/) });
      } finally {
        await smtp.start();
      }
      expect(smtp.received).toEqual([]);
      const queued = await t.db.select().from(jobs);
      expect(queued.map((job) => [job.kind, job.status, job.attempts])).toEqual([
        ['mail', 'pending', 1],
        ['mail', 'pending', 1],
      ]);

      // The worker tries again after its back-off: the server is back, both mails go out.
      clock.advance(retryDelayMs(1));
      await t.context.jobs.drain();
      const to = (email: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(email));
      expect(to(VET_EMAIL)).toHaveLength(1);
      expect(to(w.ana.user.email)).toHaveLength(1);
      const pins = openPins(t.context.secrets, (await rowOf(t, appointment.id)).pinCipher!);
      expect(to(VET_EMAIL)[0]!.text).toContain(pins.vet);
      expect(to(w.ana.user.email)[0]!.text).toContain(pins.customer);

      // Nothing is sent twice: later rounds and a restart's worker find nothing due.
      clock.advance(24 * 60 * 60_000);
      await t.context.jobs.drain();
      expect(smtp.received).toHaveLength(2);
      expect((await t.db.select().from(jobs)).every((job) => job.status === 'done')).toBe(true);
    });

    it('confirms, issues two hidden PINs and mails each party only their own', async () => {
      const appointment = await bookedAppointment(t, w);
      const response = await confirm(appointment.hash);
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const vetPin = response.json<{ appointment_pin: string }>().appointment_pin;
      expect(vetPin).toMatch(/^\d{6}$/);

      const row = await rowOf(t, appointment.id);
      expect(row).toMatchObject({ status: 'TK_Confirmed', schedule: BOOKED });
      expect(row.confirmedAt).toEqual(new Date(NOW));
      expect(row.statusDate).toEqual(new Date(NOW));
      const pins = openPins(t.context.secrets, row.pinCipher!);
      expect(pins.vet).toBe(vetPin);
      expect(pins.customer).toMatch(/^\d{6}$/);
      expect(pins.customer).not.toBe(vetPin);
      expect(row.customerPinHash).toBe(pinLookupHash(t.context.secrets, pins.customer));
      expect(row.vetPinHash).toBe(pinLookupHash(t.context.secrets, vetPin));
      // A database read alone reveals no PIN.
      const stored = JSON.stringify(row);
      expect(stored).not.toContain(pins.customer);
      expect(stored).not.toContain(vetPin);
      expect(await bookingsOf(t, appointment.id)).toEqual([
        { startsAt: BOOKED, endsAt: new Date('2026-01-20T13:30:00Z'), releasedAt: null },
      ]);

      expect(smtp.received).toHaveLength(2);
      const customerMail = smtp.received.find((mail) => mail.envelopeTo.includes(w.ana.user.email))!;
      const vetMail = smtp.received.find((mail) => mail.envelopeTo.includes(VET_EMAIL))!;
      const customerLink = `http://vetcall.test/appointment/${pins.customer}?lang=pt`;
      const vetLink = `http://vetcall.test/appointment/${vetPin}?lang=en`;

      // The customer: Portuguese, Lisbon time (13:00), their PIN and link only.
      expect(customerMail.subject).toBe('Consulta confirmada: Bolinha com Rui Vet');
      expect(customerMail.text).toContain('terça-feira, 20 de janeiro de 2026 às 13:00 (Europe/Lisbon)');
      expect(customerMail.text).toContain(pins.customer);
      expect(customerMail.text).toContain(customerLink);
      expect(customerMail.html).toContain(customerLink);
      expect(`${customerMail.text}${customerMail.html}`).not.toContain(vetPin);
      // The vet: English, São Paulo time (10:00), their PIN and link only.
      expect(vetMail.subject).toBe('Appointment confirmed: Bolinha with Rui Vet');
      expect(vetMail.text).toContain('Tuesday, 20 January 2026 at 10:00 (America/Sao_Paulo)');
      expect(vetMail.text).toContain(vetLink);
      expect(`${vetMail.text}${vetMail.html}`).not.toContain(pins.customer);

      for (const [mail, link, pin, other, summary] of [
        [customerMail, customerLink, pins.customer, vetPin, 'Teleconsulta com Rui Vet (Bolinha)'],
        [vetMail, vetLink, vetPin, pins.customer, 'Video consultation: Bolinha (Ana Dona)'],
      ] as const) {
        const ics = calendarOf(mail);
        // An invitation calendars file as such: REQUEST, the clinic organizing, the reader attending, and
        // the SEQUENCE of the appointment's first change (the feed's event has the same UID and SEQUENCE).
        expect(ics.method).toBe('REQUEST');
        expect(ics.vevent.getFirstPropertyValue('organizer')).toBe('mailto:no-reply@vetcall.test');
        expect(ics.vevent.getFirstPropertyValue('attendee')).toBe(`mailto:${mail.envelopeTo[0]}`);
        expect(ics.vevent.getFirstPropertyValue('sequence')).toBe(1);
        expect(ics.event.uid).toBe(`appointment-${appointment.id}@vetcall.test`);
        expect(ics.event.startDate.toJSDate().toISOString()).toBe('2026-01-20T13:00:00.000Z');
        expect(ics.event.endDate.toJSDate().toISOString()).toBe('2026-01-20T13:30:00.000Z');
        expect(ics.event.startDate.zone?.tzid).toBe('UTC');
        expect(ics.event.summary).toBe(summary);
        expect(ics.event.description).toContain(link);
        expect(ics.vevent.getFirstPropertyValue('url')).toBe(link);
        expect(ics.vevent.getFirstPropertyValue('status')).toBe('CONFIRMED');
        expect(ics.text).toContain(pin);
        expect(ics.text).not.toContain(other);
      }

      // The PINs open the appointment, each for its own party.
      expect(await findAppointmentByPin(t.context, pins.customer)).toMatchObject({
        party: 'customer',
        appointment: { id: appointment.id },
      });
      expect(await findAppointmentByPin(t.context, vetPin)).toMatchObject({
        party: 'vet',
        appointment: { id: appointment.id },
      });
    });

    it('takes the email in any case', async () => {
      const appointment = await bookedAppointment(t, w);
      expect((await confirm(appointment.hash, { email: '  RUI@Clinic.TEST ' })).statusCode).toBe(200);
    });

    it('answers the same PIN again for the same confirmation, and 409 already_confirmed for another time', async () => {
      const appointment = await bookedAppointment(t, w);
      const first = await confirm(appointment.hash);
      const confirmed = await rowOf(t, appointment.id);
      clock.advance(60_000);
      const again = await confirm(appointment.hash);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      // Never "confirmed" with the old time kept: another time is refused, and nothing changes.
      const moved = await confirm(appointment.hash, { schedule: '2026-01-22 10:00' });
      expect([moved.statusCode, moved.json().error]).toEqual([409, 'already_confirmed']);
      expect(await rowOf(t, appointment.id)).toEqual(confirmed);
      expect((await bookingsOf(t, appointment.id))[0]?.startsAt).toEqual(BOOKED);
      expect(smtp.received).toHaveLength(2);
    });

    it('issues one set of PINs when two confirmations race', async () => {
      const appointment = await bookedAppointment(t, w);
      const answers = await Promise.all([confirm(appointment.hash), confirm(appointment.hash)]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      expect(answers[0]!.json()).toEqual(answers[1]!.json());
      expect(smtp.received).toHaveLength(2);
    });

    it('gives the same answer for a wrong email and an unknown hash', async () => {
      const appointment = await bookedAppointment(t, w);
      const wrongEmail = await confirm(appointment.hash, { email: 'someone@clinic.test' });
      const customerEmail = await confirm(appointment.hash, { email: w.ana.user.email });
      const unknownHash = await confirm(randomBytes(16).toString('base64url'));
      for (const response of [wrongEmail, customerEmail, unknownHash]) {
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ error: 'cant_activate_appointment', message: 'cant activate appointment' });
      }
      expect((await rowOf(t, appointment.id)).status).toBe('TK_Requested');
      expect(smtp.received).toHaveLength(0);
    });

    it('refuses a body hash that is not the path hash', async () => {
      const appointment = await bookedAppointment(t, w);
      const other = await bookedAppointment(t, w, { schedule: new Date('2026-01-21T13:00:00Z') });
      const response = await confirm(appointment.hash, { hash: other.hash });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { hash: 'invalid_value' } });
    });

    it('reads the schedule as the vet browser’s wall time: instant = wall time − timezone_diff', async () => {
      const appointment = await bookedAppointment(t, w);
      // 07:00 in São Paulo is 10:00Z, ten minutes ago; the same wall time in Lisbon's winter (+0) is 07:00Z.
      for (const [schedule, diff] of [
        ['2026-01-12 07:00', SAO_PAULO_DIFF],
        ['2026-01-12 10:09', 0],
        ['2026-01-12 11:09', 3600],
      ] as const) {
        const past = await confirm(appointment.hash, { schedule, timezone_diff: diff });
        expect(past.statusCode).toBe(400);
        expect(past.json()).toMatchObject({ error: 'validation_failed', fields: { schedule: 'too_small' } });
      }
      expect((await rowOf(t, appointment.id)).status).toBe('TK_Requested');

      // 07:15 in São Paulo is 10:15Z: five minutes ahead, accepted.
      const response = await confirm(appointment.hash, { schedule: '2026-01-12 07:15', timezone_diff: SAO_PAULO_DIFF });
      expect(response.statusCode).toBe(200);
      const moved = new Date('2026-01-12T10:15:00Z');
      expect((await rowOf(t, appointment.id)).schedule).toEqual(moved);
      const vetMail = smtp.received.find((mail) => mail.envelopeTo.includes(VET_EMAIL))!;
      expect(vetMail.text).toContain('Monday, 12 January 2026 at 07:15 (America/Sao_Paulo)');
      const customerMail = smtp.received.find((mail) => mail.envelopeTo.includes(w.ana.user.email))!;
      expect(customerMail.text).toContain('segunda-feira, 12 de janeiro de 2026 às 10:15 (Europe/Lisbon)');
    });

    it('refuses a date that does not exist', async () => {
      const appointment = await bookedAppointment(t, w);
      const response = await confirm(appointment.hash, { schedule: '2026-02-30 10:00' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ fields: { schedule: 'invalid_value' } });
    });

    it('moves the booking when the vet chooses another time, releasing an expired hold in the way', async () => {
      const appointment = await bookedAppointment(t, w);
      const newStart = new Date('2026-01-21T12:00:00Z');
      await t.db.insert(calendarEvents).values({
        eventId: 'expired-hold-in-the-way',
        vetUserId: w.rui.user.id,
        customerUserId: w.ana.user.id,
        kind: 'hold',
        startsAt: newStart,
        endsAt: new Date('2026-01-21T12:30:00Z'),
        expiresAt: new Date('2026-01-12T10:00:00Z'),
      });
      const response = await confirm(appointment.hash, { schedule: '2026-01-21 09:00' });
      expect(response.statusCode).toBe(200);
      expect((await rowOf(t, appointment.id)).schedule).toEqual(newStart);
      expect(await bookingsOf(t, appointment.id)).toEqual([
        { startsAt: newStart, endsAt: new Date('2026-01-21T12:30:00Z'), releasedAt: null },
      ]);
      const [hold] = await t.db
        .select()
        .from(calendarEvents)
        .where(eq(calendarEvents.eventId, 'expired-hold-in-the-way'));
      expect(hold?.releasedAt).toEqual(new Date(NOW));
      const ics = calendarOf(smtp.received[0]!);
      expect(ics.event.startDate.toJSDate()).toEqual(newStart);
    });

    it('refuses a time that overlaps another booking of the vet (409 slot_taken) and changes nothing', async () => {
      const appointment = await bookedAppointment(t, w);
      const other = await bookedAppointment(t, w, { schedule: new Date('2026-01-21T12:00:00Z') });
      const before = await rowOf(t, appointment.id);
      // 09:15 in São Paulo = 12:15Z, inside the other booking's 12:00–12:30Z.
      const response = await confirm(appointment.hash, { schedule: '2026-01-21 09:15' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: 'slot_taken' });
      expect(await rowOf(t, appointment.id)).toEqual(before);
      expect(before.pinCipher).toBeNull();
      expect((await bookingsOf(t, appointment.id))[0]?.startsAt).toEqual(BOOKED);
      expect((await bookingsOf(t, other.id))[0]?.startsAt).toEqual(new Date('2026-01-21T12:00:00Z'));
      expect(smtp.received).toHaveLength(0);

      // Right after the other booking is free (half-open ranges).
      expect((await confirm(appointment.hash, { schedule: '2026-01-21 09:30' })).statusCode).toBe(200);
    });

    it('makes the booking of an appointment that has none', async () => {
      const appointment = await bookedAppointment(t, w, { withBooking: false });
      expect((await confirm(appointment.hash)).statusCode).toBe(200);
      expect(await bookingsOf(t, appointment.id)).toEqual([
        { startsAt: BOOKED, endsAt: new Date('2026-01-20T13:30:00Z'), releasedAt: null },
      ]);
    });

    it.each(['TK_PendingPayment', 'TK_PaymentFailed', 'TK_Canceled', 'TK_Completed'] as const)(
      'refuses to confirm a %s appointment',
      async (status) => {
        const appointment = await bookedAppointment(t, w, { status });
        const response = await confirm(appointment.hash);
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ error: 'appointment_not_confirmable' });
        const row = await rowOf(t, appointment.id);
        expect(row.status).toBe(status);
        expect(row.pinCipher).toBeNull();
        expect(smtp.received).toHaveLength(0);
      },
    );

    it('limits failed attempts per hash, whatever the IP, for 15 minutes', async () => {
      const appointment = await bookedAppointment(t, w);
      const { limit, windowMs } = CONFIRMATION_RATE_LIMITS.confirmFailuresPerHash;
      for (let i = 0; i < limit; i++) {
        const response = await confirm(appointment.hash, { email: `guess${i}@clinic.test` }, `10.1.0.${i}`);
        expect(response.statusCode).toBe(400);
      }
      const refused = await confirm(appointment.hash, {}, '10.2.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: 'too_many_requests' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await rowOf(t, appointment.id)).status).toBe('TK_Requested');

      clock.advance(windowMs);
      expect((await confirm(appointment.hash, {}, '10.2.0.1')).statusCode).toBe(200);
    });

    it('limits failed attempts per IP, whatever the hash', async () => {
      const appointment = await bookedAppointment(t, w);
      const { limit } = CONFIRMATION_RATE_LIMITS.confirmFailuresPerIp;
      for (let i = 0; i < limit; i++) {
        expect((await confirm(randomBytes(16).toString('base64url'), {}, '10.3.0.1')).statusCode).toBe(400);
      }
      expect((await confirm(appointment.hash, {}, '10.3.0.1')).statusCode).toBe(429);
      expect((await confirm(appointment.hash, {}, '10.3.0.2')).statusCode).toBe(200);
    });

    it('validates the body (docs/product-rules.md#validation: email of at least 6 characters, Y-m-d H:i)', async () => {
      const appointment = await bookedAppointment(t, w);
      const response = await confirm(appointment.hash, { email: 'a@b.c', schedule: '2026-01-20T10:00' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'validation_failed',
        fields: { email: 'too_short', schedule: 'invalid_format' },
      });
    });
  });
});
