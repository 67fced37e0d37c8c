import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { appointments } from '../../db/schema.ts';
import type { Actor } from '../auth/auth.service.ts';

/** Whether a vet has (or had) any appointment with a customer: what lets a vet see the customer's records. */
export async function vetHasAppointmentWithCustomer(db: Database, actor: Actor, customerUserId: number) {
  if (actor.type !== 'vet') return false;
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.vetUserId, actor.userId), eq(appointments.customerUserId, customerUserId)))
    .limit(1);
  return row !== undefined;
}
