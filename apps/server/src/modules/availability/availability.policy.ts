import type { Actor } from '../auth/auth.service.ts';

/** A vet keeps their own availability; managers keep any vet's (SPEC §6). */
export const canManageAvailability = (actor: Actor, vetUserId: number) =>
  actor.type === 'manager' || (actor.type === 'vet' && actor.userId === vetUserId);
