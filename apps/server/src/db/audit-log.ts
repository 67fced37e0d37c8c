import type { AuditAction } from '@vetcall/shared/audit-actions';
import type { UserType } from '@vetcall/shared/roles';
import type { RequestOrigin } from '../lib/request-origin.ts';
import type { Database } from './client.ts';
import { auditEvents } from './schema.ts';

/**
 * Who acted: a logged-in person, or null for the system (a job, the payment provider's webhook). A failed
 * login has no user, only the email typed (`{ email }`). `origin` is where the request came from: a request's
 * actor (auth/authentication.ts actorOf) carries it, and so do the actors of the routes without a session.
 */
export type AuditActor =
  | { userId: number; type: UserType; email: string; origin?: RequestOrigin }
  | { email: string; origin?: RequestOrigin }
  | null;

export interface AuditEvent {
  actor: AuditActor;
  action: AuditAction;
  /** What the action was done to: `{ type: 'appointment', id: 12 }`. */
  subject?: { type: string; id: number };
  /**
   * What else a reader needs (old and new price, the changed field's name, a file's name and size). Never a
   * password, token, PIN, a file's contents or any other secret: docs/audit-log.md lists what each action keeps.
   */
  details?: Record<string, unknown>;
  at: Date;
}

/**
 * The one way the server writes the audit log (docs/audit-log.md). Pass the transaction of the change it
 * records, so that the event commits with the change and vanishes with its rollback; where the request came
 * from is the actor's origin, none for the system.
 *
 * It lives in db/, not in modules/audit, because the appointment transition (db/appointment-transition.ts)
 * writes it, and lower layers never import feature modules.
 */
export async function recordAudit(db: Pick<Database, 'insert'>, event: AuditEvent): Promise<void> {
  const { actor } = event;
  const origin = actor?.origin;
  await db.insert(auditEvents).values({
    occurredAt: event.at,
    actorUserId: actor && 'userId' in actor ? actor.userId : null,
    actorRole: actor && 'type' in actor ? actor.type : null,
    actorEmail: actor?.email ?? null,
    action: event.action,
    subjectType: event.subject?.type ?? null,
    subjectId: event.subject?.id ?? null,
    ip: origin?.ip ?? null,
    userAgent: origin?.userAgent ?? null,
    details: event.details ?? {},
  });
}

/**
 * The names of the fields whose values differ: what an `account.updated` event keeps (which fields changed,
 * never their values, which are personal data).
 */
export function changedFields(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  return Object.keys(next).filter((key) => next[key] !== current[key]);
}
