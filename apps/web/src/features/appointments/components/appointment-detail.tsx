import { useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  Loader,
  Modal,
  Paper,
  Progress,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FILE_DESCRIPTION_MAX, MAX_CUSTOMER_UPLOAD_BYTES, MAX_STAFF_UPLOAD_BYTES } from '@vetcall/shared/constants';
import type { Locale } from '@vetcall/shared/locales';
import {
  type AppointmentDto,
  type AppointmentFile,
  appointmentUpdateSchema,
  fileDescriptionField,
} from '@vetcall/shared/schemas/appointment';
import { DESCRIPTION_MAX } from '@vetcall/shared/schemas/booking';
import { DataList } from '../../../components/ui/data-list';
import { clientConfig } from '../../../lib/client-config';
import { confirmDialog } from '../../../lib/confirm';
import { actionErrorMessage, apiErrorMessage, translateFieldError } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  APPOINTMENT_FILES_KEY,
  APPOINTMENT_KEY,
  APPOINTMENT_LISTS_KEY,
  deleteAppointmentFile,
  downloadAppointmentFile,
  notifyFileAdded,
  updateAppointment,
  useAppointment,
  useAppointmentFiles,
} from '../api/appointments';
import { uploadAppointmentFiles } from '../api/upload-files';
import { formatFileSize } from '../file-size';

/** Observations are free text; the server refuses more than this (appointmentUpdateSchema). */
const OBSERVATIONS_MAX = 20_000;

/** A file chosen with New file, uploaded on Save (SPEC §3: file_id 0 means not yet uploaded). */
interface PendingFile {
  key: number;
  /** Files added together share one description and go up in one request. */
  batch: number;
  description: string;
  file: File;
}

/** SPEC §4 Appointment edit: what each role may change. Managers change nothing. */
function editableFieldOf(viewer: AppointmentDto['viewer']): 'description' | 'vet_observations' | null {
  if (viewer === 'customer') return 'description';
  if (viewer === 'vet') return 'vet_observations';
  return null;
}

/** SPEC §9: per-appointment total of attachments, by the role of who adds them. */
function uploadCapOf(viewer: AppointmentDto['viewer']): number {
  return viewer === 'customer' ? MAX_CUSTOMER_UPLOAD_BYTES : MAX_STAFF_UPLOAD_BYTES;
}

/** Removal as the server allows it: a vet any file of the appointment, a customer only the files they added. */
function canRemoveFile(viewer: AppointmentDto['viewer'], file: AppointmentFile): boolean {
  return viewer === 'vet' || (viewer === 'customer' && file.uploaded_by === 'customer');
}

/** The appointment detail in a modal; Back and the close button both call `onClose`. */
export function AppointmentDetailModal({
  appointmentId,
  onClose,
  onOpenPetRecord,
}: {
  appointmentId: number | undefined;
  onClose: () => void;
  onOpenPetRecord?: (petId: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={appointmentId !== undefined}
      onClose={onClose}
      size="xl"
      title={
        appointmentId !== undefined ? t('appointment.title', { id: appointmentId }) : t('appointment.title_loading')
      }
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {appointmentId !== undefined && (
        <AppointmentDetail
          key={appointmentId}
          appointmentId={appointmentId}
          onBack={onClose}
          onOpenPetRecord={onOpenPetRecord}
        />
      )}
    </Modal>
  );
}

/**
 * SPEC §2.13 Appointment detail, for the three roles; the server shapes the appointment per role
 * (`viewer`), so a customer's answer has no observations to show. SPEC §4: a customer edits the chief
 * complaint, a vet the observations; both add files and mark files for removal; managers only read.
 */
export function AppointmentDetail({
  appointmentId,
  onBack,
  onOpenPetRecord,
}: {
  appointmentId: number;
  onBack: () => void;
  onOpenPetRecord?: (petId: number) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const appointment = useAppointment(appointmentId, locale);

  if (appointment.isPending) return <Loader aria-label={t('app.loading')} />;
  if (appointment.isError) {
    return (
      <Stack>
        <Alert color="red" role="alert">
          {apiErrorMessage(t, appointment.error, 'appointment.load_error')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onBack}>
            {t('common.back')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <LoadedAppointment
      appointment={appointment.data}
      locale={locale}
      onBack={onBack}
      onOpenPetRecord={onOpenPetRecord}
    />
  );
}

function LoadedAppointment({
  appointment,
  locale,
  onBack,
  onOpenPetRecord,
}: {
  appointment: AppointmentDto;
  locale: Locale;
  onBack: () => void;
  onOpenPetRecord?: (petId: number) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const id = appointment.appointment_id;
  const files = useAppointmentFiles(id);
  const editableField = editableFieldOf(appointment.viewer);
  const cap = uploadCapOf(appointment.viewer);

  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const [draftError, setDraftError] = useState<string>();
  const [removals, setRemovals] = useState<number[]>([]);
  const [pending, setPending] = useState<PendingFile[]>([]);
  const [newFileOpen, setNewFileOpen] = useState(false);
  const [newDescription, setNewDescription] = useState('');
  const [newFiles, setNewFiles] = useState<File[]>([]);
  const [newFileErrors, setNewFileErrors] = useState<{ description?: string; files?: string }>({});
  const [saving, setSaving] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const nextPendingKey = useRef(1);

  const storedFiles = files.data ?? [];
  const keptBytes =
    storedFiles.filter((file) => !removals.includes(file.file_id)).reduce((sum, file) => sum + file.file_size, 0) +
    pending.reduce((sum, entry) => sum + entry.file.size, 0);

  function startEditing() {
    setDraft(editableField === 'description' ? appointment.description : (savedObservations(appointment) ?? ''));
    setDraftError(undefined);
    setRemovals([]);
    setPending([]);
    closeNewFile();
    setEditing(true);
  }

  function cancelEditing() {
    setEditing(false);
    setRemovals([]);
    setPending([]);
    setDraftError(undefined);
    closeNewFile();
  }

  function closeNewFile() {
    setNewFileOpen(false);
    setNewDescription('');
    setNewFiles([]);
    setNewFileErrors({});
  }

  // SPEC §5/§8: over the role's cap for the appointment → 'max files size exceeded', selection cleared.
  function chooseNewFiles(selected: File[]) {
    const chosenBytes = selected.reduce((sum, file) => sum + file.size, 0);
    if (keptBytes + chosenBytes > cap) {
      notifyError(t('errors.files_too_large'));
      setNewFiles([]);
      return;
    }
    setNewFiles(selected);
    setNewFileErrors((current) => ({ ...current, files: undefined }));
  }

  function addNewFiles() {
    const description = fileDescriptionField.safeParse(newDescription);
    const errors = {
      description: description.success ? undefined : translateFieldError(t, description.error.issues[0]?.message),
      files: newFiles.length === 0 ? t('appointment.new_file_missing') : undefined,
    };
    setNewFileErrors(errors);
    if (!description.success || newFiles.length === 0) return;
    const batch = nextPendingKey.current;
    nextPendingKey.current += newFiles.length;
    setPending((current) => [
      ...current,
      ...newFiles.map((file, index) => ({ key: batch + index, batch, description: description.data, file })),
    ]);
    closeNewFile();
  }

  async function markForRemoval(file: AppointmentFile) {
    const confirmed = await confirmDialog({
      title: t('appointment.file_remove_title'),
      message: t('appointment.file_remove_confirm', { name: file.file_name }),
      confirmLabel: t('appointment.file_remove_button'),
      danger: true,
    });
    if (confirmed) setRemovals((current) => [...current, file.file_id]);
  }

  async function download(file: AppointmentFile) {
    try {
      await downloadAppointmentFile(file);
    } catch (error) {
      notifyError(apiErrorMessage(t, error));
    }
  }

  /** SPEC §4 Save: the appointment, then removals, then uploads, then the new-file notice; then view mode. */
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

    const failedRemovals: number[] = [];
    let removalError: unknown;
    for (const fileId of removals) {
      try {
        await deleteAppointmentFile(fileId);
      } catch (error) {
        failedRemovals.push(fileId);
        removalError = error;
      }
    }
    const removed = removals.length - failedRemovals.length;
    if (removed > 0) notifySuccess(t('appointment.files_removed', { count: removed }));
    if (failedRemovals.length > 0) notifyError(actionErrorMessage(t, removalError, 'errors.error_deleting_file'));

    const failedUploads: PendingFile[] = [];
    let uploadError: unknown;
    let added = 0;
    for (const batch of [...new Set(pending.map((entry) => entry.batch))]) {
      const entries = pending.filter((entry) => entry.batch === batch);
      setProgress(0);
      try {
        const created = await uploadAppointmentFiles(
          { appointment_id: id, file_description: entries[0]!.description },
          entries.map((entry) => entry.file),
          setProgress,
        );
        added += created.length;
      } catch (error) {
        failedUploads.push(...entries);
        uploadError = error;
      }
    }
    setProgress(null);
    if (failedUploads.length > 0) notifyError(actionErrorMessage(t, uploadError, 'errors.error_creating_new_file'));
    if (added > 0) {
      notifySuccess(t('appointment.files_added', { count: added }));
      try {
        await notifyFileAdded(id, appointment.viewer, locale);
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
    setRemovals(failedRemovals);
    setPending(failedUploads);
    if (failedRemovals.length === 0 && failedUploads.length === 0) setEditing(false);
    setSaving(false);
  }

  const observations = savedObservations(appointment);
  const insurance = clientConfig().insurance_enabled;

  return (
    <Stack gap="lg">
      <DataList
        cols={{ base: 1, sm: 2 }}
        items={[
          [t('appointment.schedule'), formatDateTime(appointment.schedule, locale)],
          [t('appointment.status'), t(`appointment_status.${appointment.appointment_status_key}`)],
          [t('appointment.customer'), `${appointment.customer_name} · ${appointment.customerEmail}`],
          [
            t('appointment.pet'),
            <Group gap="xs" component="span">
              <span>{appointment.pet_name}</span>
              {onOpenPetRecord && (
                <Button
                  size="compact-xs"
                  variant="light"
                  onClick={() => onOpenPetRecord(appointment.pet_id)}
                  aria-label={t('pets.record_named', { name: appointment.pet_name })}
                >
                  {t('pets.record')}
                </Button>
              )}
            </Group>,
          ],
          ...(insurance ? [[t('pets.policy'), appointment.pet_policy ?? '—'] as [string, string]] : []),
          [t('appointment.vet'), appointment.vet_name],
        ]}
      />

      {editing && editableField === 'description' ? (
        <Textarea
          label={t('appointment.description')}
          required
          autosize
          minRows={3}
          maxLength={DESCRIPTION_MAX}
          value={draft}
          error={draftError}
          onChange={(event) => setDraft(event.currentTarget.value)}
        />
      ) : (
        <TextBlock label={t('appointment.description')} text={appointment.description} />
      )}

      {/* Customers never receive observations (the server leaves them out of their shape). */}
      {observations !== undefined &&
        (editing && editableField === 'vet_observations' ? (
          <Textarea
            label={t('appointment.vet_observations')}
            autosize
            minRows={4}
            maxLength={OBSERVATIONS_MAX}
            value={draft}
            error={draftError}
            onChange={(event) => setDraft(event.currentTarget.value)}
          />
        ) : (
          <TextBlock
            label={t('appointment.vet_observations')}
            text={observations}
            emptyText={t('appointment.no_observations')}
          />
        ))}

      <section aria-labelledby={`appointment-${id}-files`}>
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h4" id={`appointment-${id}-files`}>
            {t('appointment.files')}
          </Title>
          {editing && !newFileOpen && (
            <Button variant="light" size="xs" onClick={() => setNewFileOpen(true)}>
              {t('appointment.new_file')}
            </Button>
          )}
        </Group>
        {files.isPending && <Loader aria-label={t('app.loading')} />}
        {files.isError && (
          <Alert color="red" role="alert">
            {apiErrorMessage(t, files.error, 'appointment.files_load_error')}
          </Alert>
        )}
        {files.data && (
          <FilesTable
            files={storedFiles}
            pending={pending}
            removals={removals}
            editing={editing}
            canRemove={(file) => canRemoveFile(appointment.viewer, file)}
            locale={locale}
            onDownload={(file) => void download(file)}
            onRemove={(file) => void markForRemoval(file)}
            onKeep={(file) => setRemovals((current) => current.filter((fileId) => fileId !== file.file_id))}
            onDropPending={(entry) => setPending((current) => current.filter((item) => item.key !== entry.key))}
          />
        )}
        {editing && newFileOpen && (
          <Paper withBorder p="md" mt="md" role="group" aria-label={t('appointment.new_file')}>
            <Stack gap="sm">
              <TextInput
                label={t('appointment.new_file_description')}
                description={t('appointment.new_file_description_hint')}
                required
                maxLength={FILE_DESCRIPTION_MAX}
                value={newDescription}
                error={newFileErrors.description}
                onChange={(event) => setNewDescription(event.currentTarget.value)}
              />
              <FileInput
                label={t('appointment.new_file_choose')}
                description={t('appointment.new_file_cap', { size: formatFileSize(cap, locale) })}
                required
                multiple
                clearable
                clearButtonProps={{ 'aria-label': t('appointment.new_file_clear') }}
                value={newFiles}
                error={newFileErrors.files}
                onChange={chooseNewFiles}
                placeholder={t('appointment.new_file_placeholder')}
                // Mantine's default placeholder grey is below WCAG AA contrast.
                styles={{ placeholder: { color: 'var(--mantine-color-gray-7)' } }}
              />
              <Group justify="flex-end">
                <Button variant="default" size="xs" onClick={closeNewFile}>
                  {t('common.cancel')}
                </Button>
                <Button size="xs" onClick={addNewFiles}>
                  {t('appointment.new_file_add')}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}
      </section>

      {progress !== null && (
        <Stack gap={4}>
          <Text size="sm">{t('appointment.uploading', { percent: Math.round(progress * 100) })}</Text>
          <Progress value={progress * 100} aria-label={t('appointment.upload_progress')} />
        </Stack>
      )}

      <Group justify="flex-end">
        {editing ? (
          <>
            <Button variant="default" onClick={cancelEditing} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void save()} loading={saving}>
              {t('common.save')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="default" onClick={onBack}>
              {t('common.back')}
            </Button>
            {editableField && <Button onClick={startEditing}>{t('appointment.modify')}</Button>}
          </>
        )}
      </Group>
    </Stack>
  );
}

/** Vets' and managers' shapes carry observations; a customer's has none (undefined). */
function savedObservations(appointment: AppointmentDto): string | undefined {
  return appointment.viewer === 'customer' ? undefined : appointment.vet_observations;
}

function TextBlock({ label, text, emptyText }: { label: string; text: string; emptyText?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c={text ? undefined : 'dimmed'}>
        {text || emptyText || '—'}
      </Text>
    </div>
  );
}

function FilesTable({
  files,
  pending,
  removals,
  editing,
  canRemove,
  locale,
  onDownload,
  onRemove,
  onKeep,
  onDropPending,
}: {
  files: AppointmentFile[];
  pending: PendingFile[];
  removals: number[];
  editing: boolean;
  canRemove: (file: AppointmentFile) => boolean;
  locale: Locale;
  onDownload: (file: AppointmentFile) => void;
  onRemove: (file: AppointmentFile) => void;
  onKeep: (file: AppointmentFile) => void;
  onDropPending: (entry: PendingFile) => void;
}) {
  const { t } = useTranslation();
  if (files.length === 0 && pending.length === 0) return <Text c="dimmed">{t('appointment.no_files')}</Text>;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped aria-label={t('appointment.files_table')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('appointment.file_name')}</Table.Th>
            <Table.Th>{t('appointment.file_description')}</Table.Th>
            <Table.Th>{t('appointment.file_type')}</Table.Th>
            <Table.Th>{t('appointment.file_size')}</Table.Th>
            <Table.Th>{t('appointment.upload_time')}</Table.Th>
            <Table.Th>{t('appointment.operations')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {files.map((file) => {
            const removing = removals.includes(file.file_id);
            return (
              <Table.Tr key={file.file_id}>
                <Table.Td style={{ overflowWrap: 'anywhere', textDecoration: removing ? 'line-through' : undefined }}>
                  {file.file_name}
                </Table.Td>
                <Table.Td>{file.file_description}</Table.Td>
                <Table.Td>{file.file_type}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(file.file_size, locale)}</Table.Td>
                <Table.Td>
                  {removing ? (
                    <Badge color="red" variant="light">
                      {t('appointment.marked_for_removal')}
                    </Badge>
                  ) : (
                    formatDateTime(file.upload_time, locale)
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onDownload(file)}
                      aria-label={t('appointment.download_named', { name: file.file_name })}
                    >
                      {t('appointment.download')}
                    </Button>
                    {editing &&
                      canRemove(file) &&
                      (removing ? (
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => onKeep(file)}
                          aria-label={t('appointment.keep_named', { name: file.file_name })}
                        >
                          {t('appointment.keep')}
                        </Button>
                      ) : (
                        <Button
                          size="xs"
                          variant="light"
                          color="red"
                          onClick={() => onRemove(file)}
                          aria-label={t('appointment.delete_named', { name: file.file_name })}
                        >
                          {t('appointment.delete')}
                        </Button>
                      ))}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
          {pending.map((entry) => (
            <Table.Tr key={`pending-${entry.key}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{entry.file.name}</Table.Td>
              <Table.Td>{entry.description}</Table.Td>
              <Table.Td>{entry.file.type || '—'}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(entry.file.size, locale)}</Table.Td>
              <Table.Td>
                <Badge variant="light">{t('appointment.pending_upload')}</Badge>
              </Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => onDropPending(entry)}
                  aria-label={t('appointment.drop_pending_named', { name: entry.file.name })}
                >
                  {t('appointment.drop_pending')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
