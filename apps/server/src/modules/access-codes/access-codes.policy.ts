import type { Actor } from '../auth/auth.service.ts';

/** Managers list, create, disable and enable access codes (docs/product-rules.md#manager-screens, #permissions). */
export const canManageAccessCodes = (actor: Actor) => actor.type === 'manager';

/** Customers check a code on the booking screen (docs/product-rules.md#booking); managers may check one too. */
export const canValidateAccessCode = (actor: Actor) => actor.type === 'customer' || actor.type === 'manager';
