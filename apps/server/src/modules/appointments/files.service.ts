import type { Readable } from 'node:stream';
import { asc, eq, sql } from 'drizzle-orm';
import { type AppointmentFile, fileDataSchema } from '@vetcall/shared/schemas/appointment';
import { fieldErrorsFromIssues } from '@vetcall/shared/schemas/fields';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { appointmentFiles, appointments, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';
import { canAddFiles, canDeleteFile, viewerOf } from './appointment.policy.ts';
import { loadVisibleAppointment } from './records.service.ts';
import { isAppointmentEditable, uploadCapFor } from '@vetcall/shared/appointment-rules';
import { type FileStore, filesTooLarge, type StoredFile } from '../../providers/storage/file-store.ts';
import { type AppointmentFileRow, deleteAppointmentFile, insertFileRows, recordFileEvents } from './file-rows.ts';

/**
 * The files of an appointment (docs/product-rules.md#appointment-records, #api): list, add, remove, download. Who may
 * do what is appointment.policy.ts; the bytes and their crash safety are file-store.ts.
 */

type Deps = Pick<AppContext, 'db' | 'clock'> & { store: FileStore };
export type FileData = z.output<typeof fileDataSchema>;

/**
 * Files one appointment may hold, whatever their size: the file table (and its GET) stays bounded. Photos
 * and reports of one consultation are far fewer.
 */
export const MAX_FILES_PER_APPOINTMENT = 100;

/** docs/product-rules.md#entities download_url, default form: fetched with the bearer header. */
export const downloadUrlOf = (fileId: number) => `/api/appointments/download-file.php?file_id=${fileId}`;

const notEditable = (code: 'error_creating_new_file' | 'error_deleting_file') =>
  new AppError(code, 409, {
    message: 'Files change only while the appointment is requested, confirmed or completed.',
  });
const tooManyFiles = () =>
  new AppError('payload_too_large', 413, {
    message: `An appointment holds at most ${MAX_FILES_PER_APPOINTMENT} files.`,
    fields: { files: 'too_big' },
  });
const noFiles = () =>
  new AppError('validation_failed', 400, { message: 'Choose at least one file.', fields: { files: 'required' } });

export function toAppointmentFile(
  row: AppointmentFileRow,
  uploaderType: AppointmentFile['uploaded_by'],
): AppointmentFile {
  return {
    file_id: row.id,
    appointment_id: row.appointmentId,
    file_name: row.fileName,
    file_description: row.fileDescription,
    file_type: row.fileType,
    file_size: row.fileSize,
    upload_time: row.createdAt.toISOString(),
    uploaded_by: uploaderType,
    download_url: downloadUrlOf(row.id),
  };
}

/** Bytes and number of an appointment's files. */
async function storedTotals(db: Pick<Database, 'select'>, appointmentId: number) {
  const [totals] = await db
    .select({
      bytes: sql<number>`coalesce(sum(${appointmentFiles.fileSize}), 0)`.mapWith(Number),
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(appointmentFiles)
    .where(eq(appointmentFiles.appointmentId, appointmentId));
  return totals ?? { bytes: 0, count: 0 };
}

/** GET /api/appointments/files/{appointment_id}: oldest first, for the appointment's customer, vet and managers. */
export async function listFiles(
  deps: Pick<Deps, 'db'>,
  actor: Actor,
  appointmentId: number,
): Promise<AppointmentFile[]> {
  await loadVisibleAppointment(deps.db, actor, appointmentId);
  const rows = await deps.db
    .select({ file: appointmentFiles, uploaderType: users.type })
    .from(appointmentFiles)
    .leftJoin(users, eq(users.id, appointmentFiles.uploadedByUserId))
    .where(eq(appointmentFiles.appointmentId, appointmentId))
    .orderBy(asc(appointmentFiles.id))
    .limit(MAX_FILES_PER_APPOINTMENT);
  return rows.map((row) => toAppointmentFile(row.file, row.uploaderType));
}

export interface UploadPlan {
  /** The actor's cap on the appointment's total (docs/product-rules.md#limits). */
  cap: number;
  /** What this upload may add, given the files already there; enforced while streaming. */
  remaining: number;
}

/**
 * Checked before a byte of POST /api/appointments/file is read: the actor may add files to this
 * appointment now (404 not theirs, 403 a manager, 409 not editable), and how many bytes are left under
 * their cap. addFiles checks it all again with the appointment locked.
 */
export async function planFileUpload(deps: Pick<Deps, 'db'>, actor: Actor, appointmentId: number): Promise<UploadPlan> {
  const { appointment } = await loadVisibleAppointment(deps.db, actor, appointmentId);
  if (!canAddFiles(actor, appointment)) throw forbidden();
  if (!isAppointmentEditable(appointment.status)) throw notEditable('error_creating_new_file');
  const cap = uploadCapFor(actor.type);
  const { bytes } = await storedTotals(deps.db, appointmentId);
  return { cap, remaining: Math.max(0, cap - bytes) };
}

/** The `file_data` part (JSON text, fileDataSchema), naming the appointment of the path. */
export function parseFileData(text: string | undefined, appointmentId: number): FileData {
  if (text === undefined) {
    throw new AppError('validation_failed', 400, {
      message: 'The file_data part is missing.',
      fields: { file_data: 'required' },
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('validation_failed', 400, {
      message: 'file_data is not valid JSON.',
      fields: { file_data: 'invalid_format' },
    });
  }
  const parsed = fileDataSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError('validation_failed', 400, {
      message: 'Invalid file_data.',
      fields: fieldErrorsFromIssues(parsed.error.issues),
    });
  }
  if (parsed.data.appointment_id !== appointmentId) {
    throw new AppError('validation_failed', 400, {
      message: 'file_data names another appointment than the path.',
      fields: { appointment_id: 'invalid_value' },
    });
  }
  return parsed.data;
}

/**
 * POST /api/appointments/file/{appointment_id}: the rows of files already stored, in one transaction that
 * first locks the appointment row. So uploads to one appointment take turns here, and the total is summed
 * after every earlier upload committed: two parallel uploads that each fit cannot together pass the cap
 * (the later one gets 413 files_too_large). The caller deletes the stored bytes when this fails
 * (receiveAttachments).
 */
export async function addFiles(
  deps: Deps,
  actor: Actor,
  appointmentId: number,
  data: FileData,
  files: readonly StoredFile[],
): Promise<AppointmentFile[]> {
  if (files.length === 0) throw noFiles();
  const cap = uploadCapFor(actor.type);
  const adding = files.reduce((total, file) => total + file.fileSize, 0);
  return deps.db.transaction(async (tx) => {
    const [appointment] = await tx.select().from(appointments).where(eq(appointments.id, appointmentId)).for('update');
    if (!appointment || !viewerOf(actor, appointment)) throw notFound();
    if (!canAddFiles(actor, appointment)) throw forbidden();
    if (!isAppointmentEditable(appointment.status)) throw notEditable('error_creating_new_file');
    const totals = await storedTotals(tx, appointmentId);
    if (totals.bytes + adding > cap) throw filesTooLarge(cap);
    if (totals.count + files.length > MAX_FILES_PER_APPOINTMENT) throw tooManyFiles();
    const now = deps.clock.now();
    const rows = await insertFileRows(tx, appointmentId, files, {
      uploadedByUserId: actor.userId,
      now,
      fileDescription: data.file_description,
    });
    await recordFileEvents(tx, actor, 'file.uploaded', rows, now);
    return rows.map((row) => toAppointmentFile(row, actor.type));
  });
}

/** A file and its appointment, when the actor may see the appointment; 404 otherwise. */
async function loadVisibleFile(db: Pick<Database, 'select'>, actor: Actor, fileId: number) {
  const [row] = await db
    .select({ file: appointmentFiles, appointment: appointments })
    .from(appointmentFiles)
    .innerJoin(appointments, eq(appointments.id, appointmentFiles.appointmentId))
    .where(eq(appointmentFiles.id, fileId))
    .limit(1);
  if (!row || !viewerOf(actor, row.appointment)) throw notFound();
  return row;
}

/**
 * DELETE /api/appointments/file/{file_id}: the row, then the bytes (file-store.ts). A customer removes
 * only what they added, the vet any file of the appointment, managers nothing (403); only while the
 * appointment is editable (409 error_deleting_file).
 */
export async function removeFile(deps: Pick<Deps, 'db' | 'store' | 'clock'>, actor: Actor, fileId: number) {
  const { file, appointment } = await loadVisibleFile(deps.db, actor, fileId);
  if (!canDeleteFile(actor, appointment, file)) throw forbidden();
  if (!isAppointmentEditable(appointment.status)) throw notEditable('error_deleting_file');
  const deleted = await deleteAppointmentFile(deps, fileId);
  // Removed by someone else in between: gone either way.
  if (!deleted) throw notFound();
  // The delete is one statement of its own (its bytes go after it), so the event follows it at once.
  await recordFileEvents(deps.db, actor, 'file.deleted', [deleted], deps.clock.now());
  return { file_id: fileId };
}

/**
 * GET /api/appointments/download-file.php?file_id=…: the file's row and its open byte stream, for the
 * appointment's customer, its vet and managers (404 for anyone else). Bytes that vanished (a delete that
 * raced this read) are 404 too.
 */
export async function openFileForDownload(
  deps: Pick<Deps, 'db' | 'store' | 'clock'>,
  actor: Actor,
  fileId: number,
): Promise<{ file: AppointmentFileRow; stream: Readable }> {
  const { file } = await loadVisibleFile(deps.db, actor, fileId);
  const stream = await deps.store.open(file.storageKey);
  if (!stream) throw notFound();
  try {
    await recordFileEvents(deps.db, actor, 'file.downloaded', [file], deps.clock.now());
  } catch (error) {
    // An open stream holds a descriptor (or a bucket's connection) until it is read or destroyed.
    stream.destroy();
    throw error;
  }
  return { file, stream };
}
