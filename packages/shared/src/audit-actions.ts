/**
 * What the audit log records (docs/audit-log.md, ADR 022): one closed set of action codes, used by the server
 * when it writes an event, by GET /api/audit to validate its `action` filter, and by the web app to name each
 * action in the manager's language (`audit.actions.<code>`, with the dot as an underscore).
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.password_reset_requested',
  'auth.password_reset',
  'account.created',
  'account.updated',
  'account.deactivated',
  'product.created',
  'product.price_changed',
  'product.deleted',
  'access_code.created',
  'access_code.updated',
  'appointment.requested',
  'appointment.payment_failed',
  'appointment.confirmed',
  'appointment.canceled',
  'appointment.completed',
  'file.uploaded',
  'file.downloaded',
  'file.deleted',
  'export.customers',
  'export.vets',
  'export.managers',
  'export.vets_availability',
  'export.appointments',
  'export.audit',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The groups a filter may name as a prefix (`appointment.` matches every appointment transition). */
export const AUDIT_ACTION_GROUPS = [...new Set(AUDIT_ACTIONS.map((action) => action.split('.')[0]!))].map(
  (group) => `${group}.`,
);

export const isAuditAction = (value: string): value is AuditAction =>
  (AUDIT_ACTIONS as readonly string[]).includes(value);

/** The catalog key naming an action: `audit.actions.auth_login`. */
export const auditActionKey = (action: AuditAction) => `audit.actions.${action.replace('.', '_')}`;

/** The catalog key naming a group of actions (`appointment.`): `audit.groups.appointment`. */
export const auditGroupKey = (group: string) => `audit.groups.${group.replace(/\.$/, '')}`;
