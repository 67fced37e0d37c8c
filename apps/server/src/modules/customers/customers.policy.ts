import type { Actor } from '../auth/auth.service.ts';

/**
 * A customer's own record: only that customer changes it (managers view customers only,
 * docs/product-rules.md#manager-screens).
 */
export const isCustomerSelf = (actor: Actor, customerUserId: number) =>
  actor.type === 'customer' && actor.userId === customerUserId;

export const canEditCustomer = isCustomerSelf;

/** Who may read a customer's data and pets: the customer, managers, and vets who have an appointment with them. */
export const canViewCustomer = (actor: Actor, customerUserId: number, vetHasAppointmentWithCustomer: boolean) =>
  isCustomerSelf(actor, customerUserId) ||
  actor.type === 'manager' ||
  (actor.type === 'vet' && vetHasAppointmentWithCustomer);
