import { z } from 'zod';
import { AUDIT_ACTION_GROUPS, AUDIT_ACTIONS } from '../audit-actions.ts';
import { isValidDateKey } from '../dates.ts';
import { USER_TYPES } from '../roles.ts';
import { localeField } from './fields.ts';

/**
 * The audit log (ours, not SPEC §7; docs/audit-log.md): who did what, when and from where, read by managers.
 */

/** Rows per page of GET /api/audit. */
export const AUDIT_PAGE_SIZE = 100;

const dateKeyField = z
  .string()
  .trim()
  .refine(isValidDateKey, { error: 'invalid_format' })
  .optional()
  .or(z.literal('').transform(() => undefined));

/**
 * GET /api/audit and GET /api/audit/export: the filters, all optional and combined with AND.
 * - `actor`: a part of the actor's email, any case (failed logins of unknown emails have the typed email).
 * - `action`: one action code, or a group prefix such as `appointment.`.
 * - `from`, `to`: days (YYYY-MM-DD) in the clinic's time zone (CLINIC_TIME_ZONE), both included.
 * - `cursor`: the previous page's next_cursor.
 */
const auditFilterFields = {
  actor: z.string().trim().max(254, { error: 'too_long' }).optional(),
  action: z
    .enum([...AUDIT_ACTIONS, ...AUDIT_ACTION_GROUPS] as [string, ...string[]], { error: 'invalid_value' })
    .optional()
    .or(z.literal('').transform(() => undefined)),
  from: dateKeyField,
  to: dateKeyField,
};

/** A range whose end comes before its start selects nothing: 400 `to: invalid_value`. */
const rangeInOrder: [(query: { from?: string; to?: string }) => boolean, { error: string; path: string[] }] = [
  (query) => !query.from || !query.to || query.from <= query.to,
  { error: 'invalid_value', path: ['to'] },
];

export const auditQuerySchema = z
  .object({ ...auditFilterFields, cursor: z.string().max(200, { error: 'too_long' }).optional() })
  .refine(...rangeInOrder);
export type AuditQuery = z.input<typeof auditQuerySchema>;

/** GET /api/audit/export: the same filters, and the language of the file (default: the manager's). */
export const auditExportQuerySchema = z
  .object({ ...auditFilterFields, lang: localeField.optional() })
  .refine(...rangeInOrder);
export type AuditExportQuery = z.input<typeof auditExportQuerySchema>;

/** One recorded event. `details` never holds a secret (docs/audit-log.md lists what each action keeps). */
export const auditEventSchema = z.object({
  id: z.number().int(),
  /** ISO instant. */
  occurred_at: z.string(),
  /** Null for the system (a job) or an anonymous attempt. */
  actor_user_id: z.number().int().nullable(),
  actor_role: z.enum(USER_TYPES).nullable(),
  /** The actor's email then; for a failed login, the email typed. */
  actor_email: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  subject_type: z.string().nullable(),
  subject_id: z.number().int().nullable(),
  /** The client address as the server sees it (behind TRUST_PROXY, the forwarded one). */
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEventDto = z.infer<typeof auditEventSchema>;

/** Newest first; keyset pages in (occurred_at, id) order. */
export const auditPageSchema = z.object({
  items: z.array(auditEventSchema),
  /** Pass as `cursor` for the next page; null at the end. */
  next_cursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;
