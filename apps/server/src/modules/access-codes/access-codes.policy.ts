import type { Actor } from '../auth/auth.service.ts';

/** Managers list, create, disable and enable access codes (SPEC §2.12, §6). */
export const canManageAccessCodes = (actor: Actor) => actor.type === 'manager';

/** Customers check a code on the booking screen (SPEC §2.4); managers may check one too. */
export const canValidateAccessCode = (actor: Actor) => actor.type === 'customer' || actor.type === 'manager';
