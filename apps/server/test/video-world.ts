import type { AppointmentStatus } from '@vetcall/shared/appointment-status';
import type { AppContext } from '../src/context.ts';
import { buildAppointment, buildCustomer, buildPet, buildVet } from '../src/demo-data/factories.ts';
import { issuePins } from '../src/modules/appointments/pins.ts';

/**
 * A vet, a customer with a pet, and their confirmed appointment with its two PINs, issued and stored the
 * way the vet's confirmation does it (HMAC to find them, sealed to send them again).
 */
export async function buildVideoAppointment(
  t: { db: AppContext['db']; context: Pick<AppContext, 'secrets'> },
  options: { schedule: Date; vetName?: string; customerName?: string; status?: AppointmentStatus },
) {
  const vet = await buildVet(t.db, { name: options.vetName ?? 'Rui Vet' });
  const customer = await buildCustomer(t.db, { name: options.customerName ?? 'Ana Dona' });
  const pet = await buildPet(t.db, customer.customer.id, { name: 'Bolinha' });
  const issued = await t.db.transaction((tx) => issuePins(tx, t.context.secrets));
  const appointment = await buildAppointment(
    t.db,
    { customerUserId: customer.user.id, petId: pet.id, vetUserId: vet.user.id },
    {
      status: options.status ?? 'TK_Confirmed',
      schedule: options.schedule,
      customerPinHash: issued.customerPinHash,
      vetPinHash: issued.vetPinHash,
      pinCipher: issued.pinCipher,
    },
  );
  return { vet, customer, pet, appointment, pins: issued.pins };
}
