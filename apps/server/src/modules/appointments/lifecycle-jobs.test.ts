import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { createContext } from '../../create-context.ts';
import { appointments } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type AppointmentWorld, buildAppointmentWorld, PINS } from '../../../test/appointment-world.ts';
import { startSmtpTestServer } from '../../../test/smtp-test-server.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Ana's confirmed appointment with Rui starts on Friday 20 November 2026 at 11:00 UTC. */
const START = new Date('2026-11-20T11:00:00Z');
const before = (ms: number) => new Date(START.getTime() - ms);

let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
});
afterAll(async () => {
  await smtp.close();
});

describe('the appointment jobs: completion, unconfirmed requests, reminders', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  let clock: ReturnType<typeof fixedClock>;
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = fixedClock('2026-11-18T12:00:00Z');
    t = await buildTestApp({ clock, env: { SMTP_URL: smtp.url } });
    w = await buildAppointmentWorld(t, { confirmed: { confirmedAt: new Date('2026-11-18T09:00:00Z') } });
  });
  afterEach(async () => {
    await t.close();
  });

  /** One minute's run, as the polling timer does it. */
  const runJobs = async (at: Date) => {
    clock.set(at);
    await t.context.jobs.tick();
    await t.context.jobs.drain();
  };
  const rowOf = async (id: number) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
  const mailsTo = (email: string) => smtp.received.filter((mail) => mail.envelopeTo.includes(email));

  it('completes a confirmed appointment when its room closes, one hour after the start', async () => {
    await runJobs(new Date(START.getTime() + HOUR_MS - 1000));
    expect((await rowOf(w.confirmed.id)).status).toBe('TK_Confirmed');
    const closed = new Date(START.getTime() + HOUR_MS + 30_000);
    await runJobs(closed);
    expect(await rowOf(w.confirmed.id)).toMatchObject({ status: 'TK_Completed', completedAt: closed });
  });

  it('cancels a request the vet never confirmed once its start passed, and tells both parties', async () => {
    await runJobs(w.requested.schedule);
    expect(await rowOf(w.requested.id)).toMatchObject({
      status: 'TK_Canceled',
      canceledByUserId: null,
      // Paid, and not the customer's doing: refunded in full.
      refundStatus: 'refunded',
    });
    const toBruno = mailsTo('bruno@example.test');
    expect(toBruno).toHaveLength(1);
    expect(toBruno[0]!.text).toContain('cancelada por VetCall');
    expect(toBruno[0]!.text).toContain('O veterinário não pôde confirmar este horário');
    expect(mailsTo('sara@clinic.test')[0]!.text).toContain('O veterinário não conseguiu confirmar este horário');
  });

  it('reminds both parties 24 hours and 1 hour before, each once, in their language with their PIN', async () => {
    await runJobs(before(24 * HOUR_MS + MINUTE_MS));
    expect(smtp.received).toEqual([]);

    await runJobs(before(24 * HOUR_MS - MINUTE_MS));
    const [toAna] = mailsTo('ana@example.test');
    const [toRui] = mailsTo('rui@clinic.test');
    expect(toAna!.subject).toBe(
      'Tomorrow: video consultation for Bobi, Friday, 20 November 2026 at 11:00 (Europe/Lisbon)',
    );
    expect(toAna!.text).toContain(PINS.customer);
    expect(toAna!.text).not.toContain(PINS.vet);
    expect(toAna!.text).toContain(`/appointment/${PINS.customer}?lang=en`);
    expect(toRui!.subject).toMatch(/^Amanhã: videoconsulta de Bobi/);
    expect(toRui!.text).toContain(PINS.vet);
    expect((await rowOf(w.confirmed.id)).reminded24hAt).toEqual(before(24 * HOUR_MS - MINUTE_MS));

    // A later minute, or a restarted instance, sends nothing again.
    await runJobs(before(23 * HOUR_MS));
    expect(smtp.received).toHaveLength(2);

    await runJobs(before(59 * MINUTE_MS));
    expect(mailsTo('ana@example.test').map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Tomorrow/),
      'In one hour: video consultation for Bobi',
    ]);
    expect(smtp.received).toHaveLength(4);
  });

  it('does not send a reminder whose moment passed before the appointment was confirmed', async () => {
    await t.db
      .update(appointments)
      .set({ confirmedAt: before(3 * HOUR_MS) })
      .where(eq(appointments.id, w.confirmed.id));
    await runJobs(before(2 * HOUR_MS));
    expect(smtp.received).toEqual([]);
    await runJobs(before(30 * MINUTE_MS));
    expect(smtp.received).toHaveLength(2);
  });

  it('runs each reminder once when two instances tick and drain at the same moment', async () => {
    const second = createContext(t.config, t.context.database, { clock, mailer: t.context.mailer });
    clock.set(before(24 * HOUR_MS - MINUTE_MS));
    await Promise.all([t.context.jobs.tick(), second.jobs.tick()]);
    await Promise.all([t.context.jobs.drain(), second.jobs.drain()]);
    await second.jobs.stop();
    expect(mailsTo('ana@example.test')).toHaveLength(1);
    expect(mailsTo('rui@clinic.test')).toHaveLength(1);
  });

  it('completes and cancels each appointment once when two instances tick and drain at the same moment', async () => {
    const second = createContext(t.config, t.context.database, { clock, mailer: t.context.mailer });
    const sequences = {
      confirmed: (await rowOf(w.confirmed.id)).calendarSequence,
      requested: (await rowOf(w.requested.id)).calendarSequence,
    };
    // Both are due: Ana's room closed, Bruno's request reached its start unconfirmed.
    clock.set(new Date(w.requested.schedule.getTime() + MINUTE_MS));
    await Promise.all([t.context.jobs.tick(), second.jobs.tick()]);
    await Promise.all([t.context.jobs.drain(), second.jobs.drain()]);
    await second.jobs.stop();
    expect(await rowOf(w.confirmed.id)).toMatchObject({
      status: 'TK_Completed',
      calendarSequence: sequences.confirmed + 1,
    });
    expect(await rowOf(w.requested.id)).toMatchObject({
      status: 'TK_Canceled',
      calendarSequence: sequences.requested + 1,
    });
    expect(mailsTo('bruno@example.test')).toHaveLength(1);
    expect(mailsTo('sara@clinic.test')).toHaveLength(1);
  });
});
