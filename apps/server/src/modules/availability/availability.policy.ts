import type { Actor } from '../auth/auth.service.ts';

/** A vet keeps their own availability; managers keep any vet's (docs/product-rules.md#permissions). */
export const canManageAvailability = (actor: Actor, vetUserId: number) =>
  actor.type === 'manager' || (actor.type === 'vet' && actor.userId === vetUserId);
