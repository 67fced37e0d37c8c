import type { UserType } from '@vetcall/shared/roles';
import type { Actor } from '../auth/auth.service.ts';

/**
 * Managers administer vets and managers; customer records stay view-only for them
 * (docs/product-rules.md#manager-screens).
 */
export const canAdministerUser = (actor: Actor, targetType: UserType) =>
  actor.type === 'manager' && targetType !== 'customer';

/** Full user lists are for managers; customers and vets see the public view of vets (to book one). */
export const canListUsers = (actor: Actor) => actor.type === 'manager';
export const canListPublicVets = (actor: Actor) => actor.type === 'customer' || actor.type === 'vet';

/** One's own profile; managers may also edit a vet's profile (its discount, say). */
export const canEditVetProfile = (actor: Actor, vetUserId: number) =>
  actor.type === 'manager' || (actor.type === 'vet' && actor.userId === vetUserId);
export const canViewVetProfile = canEditVetProfile;
export const canEditManagerProfile = (actor: Actor, managerUserId: number) =>
  actor.type === 'manager' && actor.userId === managerUserId;
