import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_STATUSES, canTransition } from '@vetcall/shared/appointment-status';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../demo-data/factories.ts';
import { appointments } from './schema.ts';
import { createTestDatabase, type TestDatabase } from '../../test/database.ts';
import { transitionAppointment } from './appointment-transition.ts';

const BOOKED = new Date('2026-01-12T10:00:00Z');
const NOW = new Date('2026-01-12T10:05:00Z');

describe('transitionAppointment', () => {
  let database: TestDatabase;
  let refs: { customerUserId: number; petId: number; vetUserId: number };
  beforeEach(async () => {
    database = await createTestDatabase();
    const customer = await buildCustomer(database.db);
    const vet = await buildVet(database.db);
    const pet = await buildPet(database.db, customer.customer.id);
    refs = { customerUserId: customer.user.id, petId: pet.id, vetUserId: vet.user.id };
  });
  afterEach(async () => {
    await database.release();
  });

  const appointmentIn = (status: (typeof APPOINTMENT_STATUSES)[number]) =>
    buildAppointment(database.db, refs, { status, statusDate: BOOKED });

  it('makes exactly the moves of APPOINTMENT_TRANSITIONS, stamping status_date', async () => {
    for (const from of APPOINTMENT_STATUSES) {
      for (const to of APPOINTMENT_STATUSES) {
        const appointment = await appointmentIn(from);
        const moved = await transitionAppointment(database.db, appointment.id, to, NOW, null);
        const [row] = await database.db.select().from(appointments).where(eq(appointments.id, appointment.id));
        if (canTransition(from, to)) {
          expect(moved, `${from} → ${to}`).toMatchObject({ id: appointment.id, status: to, statusDate: NOW });
          expect(row).toMatchObject({ status: to, statusDate: NOW });
        } else {
          expect(moved, `${from} → ${to}`).toBeNull();
          expect(row).toMatchObject({ status: from, statusDate: BOOKED });
        }
      }
    }
  });

  it('sets the extra columns with the move, and only with it', async () => {
    const appointment = await appointmentIn('TK_PendingPayment');
    const paid = await transitionAppointment(database.db, appointment.id, 'TK_Requested', NOW, null, {
      paidAt: NOW,
      paymentProvider: 'builtin',
    });
    expect(paid).toMatchObject({ status: 'TK_Requested', paidAt: NOW, paymentProvider: 'builtin' });
    const again = await transitionAppointment(database.db, appointment.id, 'TK_Requested', NOW, null, {
      paymentProvider: 'stripe',
    });
    expect(again).toBeNull();
    const [row] = await database.db.select().from(appointments).where(eq(appointments.id, appointment.id));
    expect(row!.paymentProvider).toBe('builtin');
  });

  it('answers null for an unknown appointment', async () => {
    expect(await transitionAppointment(database.db, 999_999, 'TK_Canceled', NOW, null)).toBeNull();
  });

  it('lets one of two racing moves win: paid and payment failed cannot both happen', async () => {
    const appointment = await appointmentIn('TK_PendingPayment');
    const results = await Promise.all([
      database.db.transaction((tx) => transitionAppointment(tx, appointment.id, 'TK_Requested', NOW, null)),
      database.db.transaction((tx) => transitionAppointment(tx, appointment.id, 'TK_PaymentFailed', NOW, null)),
    ]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
  });

  it('takes part in the caller’s transaction', async () => {
    const appointment = await appointmentIn('TK_Requested');
    await expect(
      database.db.transaction(async (tx) => {
        expect(await transitionAppointment(tx, appointment.id, 'TK_Confirmed', NOW, null)).not.toBeNull();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const [row] = await database.db.select().from(appointments).where(eq(appointments.id, appointment.id));
    expect(row!.status).toBe('TK_Requested');
  });
});
