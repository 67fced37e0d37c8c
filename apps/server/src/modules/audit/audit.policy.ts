import type { Actor } from '../auth/auth.service.ts';

/** Managers read and export the audit log (docs/audit-log.md): they administer the platform; nobody else does. */
export const canReadAuditLog = (actor: Actor) => actor.type === 'manager';
