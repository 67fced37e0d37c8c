import { Button, Group, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentFile } from '@vetcall/shared/schemas/appointment';
import { QueryContent } from '../../../components/ui/query-content';
import { confirmDialog } from '../../../lib/confirm';
import { apiErrorMessage } from '../../../lib/form-errors';
import { notifyError } from '../../../lib/notify';
import { downloadAppointmentFile } from '../api/appointments';
import { AppointmentFilesTable } from './appointment-files-table';
import { NewFileForm } from './new-file-form';
import type { AppointmentEdit } from './use-appointment-edit';

/** The Files section of the appointment detail: the table, and while editing New file and removals. */
export function AppointmentFilesSection({
  appointmentId,
  files,
  edit,
  locale,
}: {
  appointmentId: number;
  files: UseQueryResult<AppointmentFile[]>;
  edit: AppointmentEdit;
  locale: Locale;
}) {
  const { t } = useTranslation();
  const headingId = `appointment-${appointmentId}-files`;

  async function confirmRemoval(file: AppointmentFile) {
    const confirmed = await confirmDialog({
      title: t('appointment.file_remove_title'),
      message: t('appointment.file_remove_confirm', { name: file.file_name }),
      confirmLabel: t('appointment.file_remove_button'),
      danger: true,
    });
    if (confirmed) edit.markForRemoval(file);
  }

  async function download(file: AppointmentFile) {
    try {
      await downloadAppointmentFile(file);
    } catch (error) {
      notifyError(apiErrorMessage(t, error));
    }
  }

  return (
    <section aria-labelledby={headingId}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h4" id={headingId}>
          {t('appointment.files')}
        </Title>
        {edit.editing && edit.canAddFiles && !edit.newFileOpen && (
          <Button variant="light" size="xs" onClick={edit.openNewFile}>
            {t('appointment.new_file')}
          </Button>
        )}
      </Group>
      <QueryContent query={files} errorKey="appointment.files_load_error">
        {(stored) => (
          <AppointmentFilesTable
            files={stored}
            pending={edit.pending}
            removals={edit.removals}
            editing={edit.editing}
            canRemove={edit.canRemove}
            locale={locale}
            onDownload={(file) => void download(file)}
            onRemove={(file) => void confirmRemoval(file)}
            onKeep={edit.keep}
            onDropPending={edit.dropPending}
          />
        )}
      </QueryContent>
      {edit.editing && edit.newFileOpen && (
        <NewFileForm
          uploadCap={edit.uploadCap}
          keptBytes={edit.keptBytes}
          locale={locale}
          onAdd={edit.addPending}
          onCancel={edit.closeNewFile}
        />
      )}
    </section>
  );
}
