import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  canAddFilesAs,
  canRemoveFile,
  editableFieldOf,
  isAppointmentEditable,
  uploadCapFor,
} from '@vetcall/shared/appointment-rules';
import type { Locale } from '@vetcall/shared/locales';
import {
  type AppointmentDto,
  type AppointmentFile,
  appointmentUpdateSchema,
} from '@vetcall/shared/schemas/appointment';
import { actionErrorMessage, translateFieldError } from '../../../lib/form-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  APPOINTMENT_FILES_KEY,
  APPOINTMENT_KEY,
  APPOINTMENT_LISTS_KEY,
  deleteAppointmentFile,
  notifyFileAdded,
  updateAppointment,
} from '../api/appointments';
import { uploadAppointmentFiles } from '../api/upload-files';

/** A file chosen with New file, uploaded on Save (docs/product-rules.md#entities: file_id 0 means not yet uploaded). */
export interface PendingFile {
  key: number;
  /** Files added together share one description and go up in one request. */
  batch: number;
  description: string;
  file: File;
}

/**
 * docs/product-rules.md#states Appointment edit: the edit state of one appointment (the draft of the one field the
 * viewer edits, the files marked for removal, the files waiting for upload) and Save. What the viewer may do comes from
 * the shared appointment rules, the same functions the server's policy calls, so the screen never offers
 * what the server would refuse (a manager, or a record frozen by its status, gets no Modify data).
 */
export function useAppointmentEdit(appointment: AppointmentDto, storedFiles: AppointmentFile[], locale: Locale) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const id = appointment.appointment_id;
  const viewer = appointment.viewer;
  const editableField = isAppointmentEditable(appointment.appointment_status_key) ? editableFieldOf(viewer) : null;

  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string>();
  const [removals, setRemovals] = useState<number[]>([]);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [newFileOpen, setNewFileOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const nextPendingKey = useRef(1);

  /** What the appointment holds once Save has run: the stored files kept plus the pending ones. */
  const keptBytes =
    storedFiles.filter((file) => !removals.includes(file.file_id)).reduce((sum, file) => sum + file.file_size, 0) +
    pending.reduce((sum, entry) => sum + entry.file.size, 0);

  function reset(nextEditing: boolean) {
    setEditing(nextEditing);
    setDraftError(undefined);
    setRemovals([]);
    setPending([]);
    setNewFileOpen(false);
  }

  function start() {
    setDraft(editableField === 'description' ? appointment.description : (savedObservations(appointment) ?? ''));
    reset(true);
  }

  function addPending(description: string, files: File[]) {
    const batch = nextPendingKey.current;
    nextPendingKey.current += files.length;
    setPending((current) => [
      ...current,
      ...files.map((file, index) => ({ key: batch + index, batch, description, file })),
    ]);
    setNewFileOpen(false);
  }

  /**
   * docs/product-rules.md#states Save: the appointment, then removals, then uploads, then the new-file notice; then
   * view mode.
   */
  async function save() {
    if (!editableField) return;
    const parsed = appointmentUpdateSchema.safeParse({ [editableField]: draft });
    if (!parsed.success) {
      setDraftError(translateFieldError(t, parsed.error.issues[0]?.message));
      return;
    }
    setDraftError(undefined);
    setSaving(true);
    try {
      await updateAppointment(id, parsed.data);
    } catch (error) {
      notifyError(actionErrorMessage(t, error, 'errors.error_updating_appointment'));
      setSaving(false);
      return;
    }
    notifySuccess(t('appointment.updated'));

    const removal = await attemptEach(removals, deleteAppointmentFile);
    if (removal.done.length > 0) notifySuccess(t('appointment.files_removed', { count: removal.done.length }));
    if (removal.failed.length > 0) {
      notifyError(actionErrorMessage(t, removal.error, 'errors.error_deleting_file'));
    }

    const upload = await attemptEach(batchesOf(pending), (entries) => {
      setProgress(0);
      const data = { appointment_id: id, file_description: entries[0]!.description };
      return uploadAppointmentFiles(
        data,
        entries.map((entry) => entry.file),
        setProgress,
      );
    });
    setProgress(null);
    if (upload.failed.length > 0) notifyError(actionErrorMessage(t, upload.error, 'errors.error_creating_new_file'));
    const added = upload.done.flat().length;
    if (added > 0) {
      notifySuccess(t('appointment.files_added', { count: added }));
      try {
        await notifyFileAdded(id, viewer, locale);
      } catch (error) {
        notifyError(actionErrorMessage(t, error, 'errors.error_notifying_file_added'));
      }
    }

    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [APPOINTMENT_KEY, id] }),
      queryClient.invalidateQueries({ queryKey: [APPOINTMENT_FILES_KEY, id] }),
      queryClient.invalidateQueries({ queryKey: [APPOINTMENT_LISTS_KEY] }),
    ]);
    // What failed stays pending, so the person can try again or cancel; otherwise editing ends.
    const failedUploads = upload.failed.flat();
    setRemovals(removal.failed);
    setPending(failedUploads);
    if (removal.failed.length === 0 && failedUploads.length === 0) setEditing(false);
    setSaving(false);
  }

  return {
    /** The field this viewer edits now; null when nothing may be edited (managers, frozen records). */
    editableField,
    canAddFiles: editableField !== null && canAddFilesAs(viewer),
    canRemove: (file: AppointmentFile) => canRemoveFile(viewer, file.uploaded_by),
    /** docs/product-rules.md#limits: the per-appointment total of attachments, by the role of who adds them. */
    uploadCap: uploadCapFor(viewer),
    keptBytes,
    editing,
    draft,
    draftError,
    removals,
    pending,
    newFileOpen,
    saving,
    progress,
    start,
    cancel: () => reset(false),
    setDraft,
    openNewFile: () => setNewFileOpen(true),
    closeNewFile: () => setNewFileOpen(false),
    addPending,
    dropPending: (entry: PendingFile) => setPending((current) => current.filter((item) => item.key !== entry.key)),
    markForRemoval: (file: AppointmentFile) => setRemovals((current) => [...current, file.file_id]),
    keep: (file: AppointmentFile) => setRemovals((current) => current.filter((fileId) => fileId !== file.file_id)),
    save,
  };
}

export type AppointmentEdit = ReturnType<typeof useAppointmentEdit>;

/** Vets' and managers' shapes carry observations; a customer's has none (undefined). */
export function savedObservations(appointment: AppointmentDto): string | undefined {
  return appointment.viewer === 'customer' ? undefined : appointment.vet_observations;
}

/** Pending files grouped as they were added: one upload request per description. */
function batchesOf(pending: PendingFile[]): PendingFile[][] {
  return [...new Set(pending.map((entry) => entry.batch))].map((batch) =>
    pending.filter((entry) => entry.batch === batch),
  );
}

/** Runs `run` on each item in turn; one failing does not stop the others. Keeps the last error. */
async function attemptEach<Item, Result>(items: Item[], run: (item: Item) => Promise<Result>) {
  const done: Result[] = [];
  const failed: Item[] = [];
  let error: unknown;
  for (const item of items) {
    try {
      done.push(await run(item));
    } catch (caught) {
      failed.push(item);
      error = caught;
    }
  }
  return { done, failed, error };
}
