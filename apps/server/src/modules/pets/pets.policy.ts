import type { Actor } from '../auth/auth.service.ts';
import { canViewCustomer, isCustomerSelf } from '../customers/customers.policy.ts';

/** Pets follow their owner's record: the owner edits; managers and related vets read. */
export const canEditPet = (actor: Actor, ownerUserId: number) => isCustomerSelf(actor, ownerUserId);
export const canViewPet = canViewCustomer;
