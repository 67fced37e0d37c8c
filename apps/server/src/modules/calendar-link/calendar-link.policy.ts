import type { Actor } from '../auth/auth.service.ts';

/**
 * Only the vet themself links or unlinks their calendar (docs/product-rules.md#permissions): not a manager, not another
 * vet.
 */
export const canLinkCalendar = (actor: Actor, vetUserId: number) => actor.type === 'vet' && actor.userId === vetUserId;
