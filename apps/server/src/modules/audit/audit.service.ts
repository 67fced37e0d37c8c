import { and, desc, eq, gte, ilike, like, lt, type SQL } from 'drizzle-orm';
import { type AuditAction, auditActionKey } from '@vetcall/shared/audit-actions';
import type { Locale } from '@vetcall/shared/locales';
import { AUDIT_PAGE_SIZE, type AuditEventDto, type AuditPage } from '@vetcall/shared/schemas/audit';
import { addDaysToDateKey, zonedWallTimeToInstant } from '@vetcall/shared/scheduling/zoned-time';
import type { AppContext } from '../../context.ts';
import { auditEvents } from '../../db/schema.ts';
import { forbidden } from '../../errors.ts';
import { translate } from '../../i18n.ts';
import { decodeCursor, encodeCursor, keysetPage, rowsAfter } from '../../lib/keyset-cursor.ts';
import type { Actor } from '../auth/auth.service.ts';
import { recordExport } from '../exports/export-audit.ts';
import type { ExportFile } from '../exports/exports.service.ts';
import { buildWorkbook, exportFileName, MAX_EXPORT_ROWS, type WorkbookColumn } from '../exports/workbook.ts';
import { canReadAuditLog } from './audit.policy.ts';

/** The filters of GET /api/audit and its export, as the shared schema parsed them. */
export interface AuditFilters {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

type Deps = Pick<AppContext, 'db' | 'config' | 'clock'>;
type AuditRow = typeof auditEvents.$inferSelect;

/** A LIKE pattern's own characters taken literally (`access_code.` has an underscore). */
const literal = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The filters as conditions. `actor` is a part of the actor's email, any case; `action` a code or a group
 * (`appointment.`); `from` and `to` whole days in the clinic's time zone, both included.
 */
function conditionsOf(filters: AuditFilters, clinicTimeZone: string): SQL[] {
  const conditions: SQL[] = [];
  if (filters.actor) conditions.push(ilike(auditEvents.actorEmail, `%${literal(filters.actor)}%`));
  if (filters.action) {
    conditions.push(
      filters.action.endsWith('.')
        ? like(auditEvents.action, `${literal(filters.action)}%`)
        : eq(auditEvents.action, filters.action),
    );
  }
  if (filters.from) {
    conditions.push(gte(auditEvents.occurredAt, zonedWallTimeToInstant(filters.from, '00:00', clinicTimeZone)));
  }
  if (filters.to) {
    const dayAfter = addDaysToDateKey(filters.to, 1);
    conditions.push(lt(auditEvents.occurredAt, zonedWallTimeToInstant(dayAfter, '00:00', clinicTimeZone)));
  }
  return conditions;
}

function toDto(row: AuditRow): AuditEventDto {
  return {
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    actor_user_id: row.actorUserId,
    actor_role: row.actorRole,
    actor_email: row.actorEmail,
    // Written only by recordAudit, whose type admits AUDIT_ACTIONS alone.
    action: row.action as AuditAction,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    ip: row.ip,
    user_agent: row.userAgent,
    details: row.details,
  };
}

const cursorOf = (row: AuditRow) => encodeCursor({ at: row.occurredAt.toISOString(), id: row.id });

/**
 * GET /api/audit: newest first, AUDIT_PAGE_SIZE a page, keyset pages in (occurred_at, id) order read backwards
 * through audit_events_occurred_idx (or audit_events_action_idx when one action is asked for).
 */
export async function listAuditEvents(
  deps: Deps,
  actor: Actor,
  query: AuditFilters & { cursor?: string },
): Promise<AuditPage> {
  if (!canReadAuditLog(actor)) throw forbidden();
  const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await deps.db
    .select()
    .from(auditEvents)
    .where(
      and(
        ...conditionsOf(query, deps.config.clinicTimeZone),
        cursor ? rowsAfter(auditEvents.occurredAt, auditEvents.id, cursor, 'desc') : undefined,
      ),
    )
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  const page = keysetPage(rows, AUDIT_PAGE_SIZE, cursorOf);
  return { items: page.rows.map(toDto), next_cursor: page.nextCursor };
}

const COLUMNS: Omit<WorkbookColumn, 'header'>[] = [
  { key: 'occurred_at', type: 'datetime' },
  { key: 'actor_email', type: 'text' },
  { key: 'actor_role', type: 'text' },
  { key: 'action', type: 'text' },
  { key: 'subject', type: 'text' },
  { key: 'ip', type: 'text' },
  { key: 'user_agent', type: 'text' },
  { key: 'details', type: 'text' },
];

/**
 * GET /api/audit/export: the events the same filters select, newest first, at most MAX_EXPORT_ROWS (then the
 * file is cut and says so), with date-times in the clinic's time zone. The export itself is recorded.
 */
export async function exportAuditEvents(
  deps: Deps,
  actor: Actor,
  filters: AuditFilters,
  locale: Locale,
): Promise<ExportFile> {
  if (!canReadAuditLog(actor)) throw forbidden();
  const rows = await deps.db
    .select()
    .from(auditEvents)
    .where(and(...conditionsOf(filters, deps.config.clinicTimeZone)))
    .orderBy(desc(auditEvents.occurredAt), desc(auditEvents.id))
    .limit(MAX_EXPORT_ROWS + 1);
  const truncated = rows.length > MAX_EXPORT_ROWS;
  const buffer = await buildWorkbook({
    sheetName: translate(locale, 'exports.sheets.audit'),
    columns: COLUMNS.map((column) => ({ ...column, header: translate(locale, `exports.columns.${column.key}`) })),
    rows: rows.slice(0, MAX_EXPORT_ROWS).map((row) => ({
      occurred_at: row.occurredAt,
      actor_email: row.actorEmail,
      actor_role: row.actorRole ? translate(locale, `audit.roles.${row.actorRole}`) : translate(locale, 'audit.system'),
      action: translate(locale, auditActionKey(row.action as AuditAction)),
      subject: row.subjectType ? `${row.subjectType} ${row.subjectId ?? ''}`.trim() : '',
      ip: row.ip,
      user_agent: row.userAgent,
      details: Object.keys(row.details).length > 0 ? JSON.stringify(row.details) : '',
    })),
    timeZone: deps.config.clinicTimeZone,
  });
  const file = {
    fileName: exportFileName(translate(locale, 'exports.files.audit'), deps.clock.now()),
    buffer,
    truncated,
  };
  await recordExport(deps, actor, 'audit', file, { ...filters });
  return file;
}
