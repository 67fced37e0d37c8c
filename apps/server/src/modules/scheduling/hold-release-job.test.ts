import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildHold, buildPet, buildVet } from '../../demo-data/factories.ts';
import { appointments, calendarEvents } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { releaseExpiredHolds } from './hold-release-job.ts';

/** Monday 12 January 2026, 10:10 in Lisbon (UTC+0 in winter). */
const NOW = '2026-01-12T10:10:00Z';
const MINUTE_MS = 60_000;
const at = (minutesFromNow: number) => new Date(new Date(NOW).getTime() + minutesFromNow * MINUTE_MS);

describe('hold release job and unpaid appointments', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  let world: Awaited<ReturnType<typeof buildWorld>>;

  async function buildWorld() {
    const vet = await buildVet(t.db, {
      profile: {
        timezone: 'Europe/Lisbon',
        daySchedules: [1, 2, 3, 4, 5].map((dayOfWeek) => ({
          dayOfWeek,
          workingIntervals: [{ start: '09:00', end: '12:00' }],
        })),
      },
    });
    const customer = await buildCustomer(t.db, { email: 'ana@example.test', password: 'secret-pass' });
    const pet = await buildPet(t.db, customer.customer.id);
    const refs = { customerUserId: customer.user.id, petId: pet.id, vetUserId: vet.user.id };
    return { vet, customer, refs };
  }

  /** An appointment of the given status on a hold of 11:00 + `slot` × 30 minutes, expiring at `expiresAt`. */
  async function appointmentOnHold(
    status: 'TK_PendingPayment' | 'TK_Requested',
    expiresAt: Date,
    slot = 0,
  ): Promise<{ appointmentId: number; holdId: number }> {
    const startsAt = new Date(Date.parse('2026-01-12T11:00:00Z') + slot * 30 * MINUTE_MS);
    const appointment = await buildAppointment(t.db, world.refs, {
      status,
      statusDate: new Date('2026-01-12T10:00:00Z'),
      schedule: startsAt,
    });
    const hold = await buildHold(t.db, {
      vetUserId: world.vet.user.id,
      customerUserId: world.customer.user.id,
      startsAt,
      expiresAt,
      appointmentId: appointment.id,
    });
    return { appointmentId: appointment.id, holdId: hold.id };
  }

  const appointment = async (id: number) => (await t.db.select().from(appointments).where(eq(appointments.id, id)))[0]!;
  const hold = async (id: number) => (await t.db.select().from(calendarEvents).where(eq(calendarEvents.id, id)))[0]!;

  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock });
    world = await buildWorld();
  });
  afterEach(async () => {
    await t.close();
  });

  it('fails an appointment whose payment window lapsed, in the same transaction as the release', async () => {
    const lapsed = await appointmentOnHold('TK_PendingPayment', at(-1), 0);
    const waiting = await appointmentOnHold('TK_PendingPayment', at(20), 1);
    const plain = await buildHold(t.db, {
      vetUserId: world.vet.user.id,
      customerUserId: world.customer.user.id,
      startsAt: '2026-01-12T09:00:00Z',
      expiresAt: at(-5),
    });

    expect(await releaseExpiredHolds(t.context)).toBe(2);
    expect(await appointment(lapsed.appointmentId)).toMatchObject({
      status: 'TK_PaymentFailed',
      statusDate: new Date(NOW),
    });
    expect((await hold(lapsed.holdId)).releasedAt).toEqual(new Date(NOW));
    expect((await hold(plain.id)).releasedAt).toEqual(new Date(NOW));
    expect(await appointment(waiting.appointmentId)).toMatchObject({ status: 'TK_PendingPayment' });
    expect((await hold(waiting.holdId)).releasedAt).toBeNull();

    // Nothing left to do the second time; the failed appointment is not touched again.
    clock.advance(MINUTE_MS);
    expect(await releaseExpiredHolds(t.context)).toBe(0);
    expect((await appointment(lapsed.appointmentId)).statusDate).toEqual(new Date(NOW));
  });

  it('never moves an appointment that is past payment', async () => {
    const paid = await appointmentOnHold('TK_Requested', at(-1));
    expect(await releaseExpiredHolds(t.context)).toBe(1);
    expect(await appointment(paid.appointmentId)).toMatchObject({ status: 'TK_Requested' });
  });

  it('fails the unpaid appointment when a new hold releases its expired hold in the way', async () => {
    const lapsed = await appointmentOnHold('TK_PendingPayment', at(-1));
    await buildCustomer(t.db, { email: 'bia@example.test', password: 'secret-pass' });
    const { headers } = await t.loginAs('bia@example.test', 'secret-pass');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/scheduling/holds',
      headers,
      payload: { vet_id: world.vet.vet.id, profile_id: world.vet.profile.id, start: '2026-01-12T11:00:00Z' },
    });
    expect(response.statusCode).toBe(201);
    expect(await appointment(lapsed.appointmentId)).toMatchObject({ status: 'TK_PaymentFailed' });
    expect((await hold(lapsed.holdId)).releasedAt).toEqual(new Date(NOW));
  });

  it('releases nothing if the appointment cannot be failed (one transaction)', async () => {
    const lapsed = await appointmentOnHold('TK_PendingPayment', at(-1));
    await t.db.execute(sql`
      create function refuse_appointment_update() returns trigger language plpgsql as $$
      begin raise exception 'appointments are read-only'; end $$`);
    await t.db.execute(sql`
      create trigger refuse_appointment_update before update on appointments
      for each row execute function refuse_appointment_update()`);
    try {
      await expect(releaseExpiredHolds(t.context)).rejects.toThrow();
      expect((await hold(lapsed.holdId)).releasedAt).toBeNull();
    } finally {
      await t.db.execute(sql`drop trigger refuse_appointment_update on appointments`);
      await t.db.execute(sql`drop function refuse_appointment_update()`);
    }
    expect(await releaseExpiredHolds(t.context)).toBe(1);
    expect(await appointment(lapsed.appointmentId)).toMatchObject({ status: 'TK_PaymentFailed' });
  });
});
