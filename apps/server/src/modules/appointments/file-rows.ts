import { asc, eq } from 'drizzle-orm';
import type { AuditAction } from '@vetcall/shared/audit-actions';
import { type AuditActor, recordAudit } from '../../db/audit-log.ts';
import type { Database } from '../../db/client.ts';
import { appointmentFiles } from '../../db/schema.ts';
import type { FileStore, StoredFile } from '../../providers/storage/file-store.ts';

/**
 * The rows that name an appointment's stored files. Bytes are written before their rows and deleted
 * after them (providers/storage/file-store.ts), so a failure leaves at worst an orphan for the sweep.
 */
export type AppointmentFileRow = typeof appointmentFiles.$inferSelect;

/** Writes the rows of stored files for an appointment, in the caller's transaction. */
export async function insertFileRows(
  db: Pick<Database, 'insert'>,
  appointmentId: number,
  files: readonly StoredFile[],
  options: { uploadedByUserId: number; now: Date; fileDescription?: string },
): Promise<AppointmentFileRow[]> {
  if (files.length === 0) return [];
  return db
    .insert(appointmentFiles)
    .values(
      files.map((file) => ({
        appointmentId,
        fileName: file.fileName,
        fileDescription: options.fileDescription ?? '',
        fileType: file.fileType,
        fileSize: file.fileSize,
        storageKey: file.storageKey,
        uploadedByUserId: options.uploadedByUserId,
        createdAt: options.now,
      })),
    )
    .returning();
}

/** An appointment's files, oldest first. Authorization is the caller's. */
export async function listAppointmentFiles(
  db: Pick<Database, 'select'>,
  appointmentId: number,
): Promise<AppointmentFileRow[]> {
  return db
    .select()
    .from(appointmentFiles)
    .where(eq(appointmentFiles.appointmentId, appointmentId))
    .orderBy(asc(appointmentFiles.id));
}

/** Bytes of an appointment's files so far: what is left of its cap is the cap minus this. */
export async function storedBytesOf(db: Pick<Database, 'select'>, appointmentId: number): Promise<number> {
  const rows = await listAppointmentFiles(db, appointmentId);
  return rows.reduce((total, row) => total + row.fileSize, 0);
}

/**
 * Deletes a file: the row first (answered, or null when there was none), then the bytes. Authorization
 * is the caller's.
 */
export async function deleteAppointmentFile(
  deps: { db: Pick<Database, 'delete'>; store: FileStore },
  fileId: number,
): Promise<AppointmentFileRow | null> {
  const [row] = await deps.db.delete(appointmentFiles).where(eq(appointmentFiles.id, fileId)).returning();
  if (!row) return null;
  await deps.store.discard([row]);
  return row;
}

/**
 * Writes one audit event per file (docs/audit-log.md): which file of which appointment, its name, type and
 * size; never its contents or its storage key.
 */
export async function recordFileEvents(
  db: Pick<Database, 'insert'>,
  actor: AuditActor,
  action: Extract<AuditAction, `file.${string}`>,
  rows: readonly AppointmentFileRow[],
  now: Date,
): Promise<void> {
  for (const row of rows) {
    await recordAudit(db, {
      actor,
      action,
      subject: { type: 'file', id: row.id },
      details: {
        appointment_id: row.appointmentId,
        file_name: row.fileName,
        file_type: row.fileType,
        file_size: row.fileSize,
      },
      at: now,
    });
  }
}
