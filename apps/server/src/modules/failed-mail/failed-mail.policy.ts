import type { Actor } from '../auth/auth.service.ts';

/**
 * Managers see, retry and dismiss the mail the job worker gave up on (docs/jobs-and-mail.md#failed-mail, ours):
 * they administer the platform, and only recipients and subjects are shown, never the bodies.
 */
export const canManageFailedMail = (actor: Actor) => actor.type === 'manager';
