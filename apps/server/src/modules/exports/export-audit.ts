import type { AuditAction } from '@vetcall/shared/audit-actions';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../../db/audit-log.ts';
import type { Actor } from '../auth/auth.service.ts';
import type { ExportFile } from './exports.service.ts';

type KindOf<Action> = Action extends `export.${infer Kind}` ? Kind : never;
/** What was exported: the part of its audit action after `export.`. */
export type ExportKind = KindOf<AuditAction>;

/**
 * An export in the audit log (docs/audit-log.md): who took which list, with the file's name and whether it was
 * cut at MAX_EXPORT_ROWS. Nothing changes in the database, so the event is a statement of its own.
 */
export async function recordExport(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  kind: ExportKind,
  file: ExportFile,
  filters?: Record<string, unknown>,
): Promise<void> {
  await recordAudit(deps.db, {
    actor,
    action: `export.${kind}`,
    details: { file_name: file.fileName, truncated: file.truncated, ...(filters ? { filters } : {}) },
    at: deps.clock.now(),
  });
}
