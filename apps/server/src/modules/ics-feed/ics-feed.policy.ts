import type { Actor } from '../auth/auth.service.ts';

/**
 * A feed URL is a bearer secret for the vet's bookings: only the vet themself makes, sees or removes it,
 * not even a manager (who could otherwise follow a vet's calendar unseen).
 */
export const canManageIcsFeed = (actor: Actor, vetUserId: number) => actor.type === 'vet' && actor.userId === vetUserId;
