import type { UserType } from '@vetcall/shared/roles';
import type { Actor } from '../auth/auth.service.ts';

/**
 * Who may change a user's photo (docs/product-rules.md#permissions): the user themself, whatever their type, and a
 * manager for a vet or a manager. Customers' photos are theirs alone (managers only view customers,
 * docs/product-rules.md#manager-screens).
 */
export const canChangePhoto = (actor: Actor, target: { userId: number; type: UserType }) =>
  actor.userId === target.userId || (actor.type === 'manager' && (target.type === 'vet' || target.type === 'manager'));
