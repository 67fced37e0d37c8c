import type { UserType } from '@vetcall/shared/roles';
import type { Actor } from '../auth/auth.service.ts';

/**
 * Who may change a user's photo (SPEC §6): the user themself, whatever their type, and a manager for
 * a vet or a manager. Customers' photos are theirs alone (managers only view customers, SPEC §2.12).
 */
export const canChangePhoto = (actor: Actor, target: { userId: number; type: UserType }) =>
  actor.userId === target.userId || (actor.type === 'manager' && (target.type === 'vet' || target.type === 'manager'));
