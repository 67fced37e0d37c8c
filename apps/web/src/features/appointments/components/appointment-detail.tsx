import { Alert, Button, Group, Loader, Modal, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto } from '@vetcall/shared/schemas/appointment';
import { DataList } from '../../../components/ui/data-list';
import { clientConfig } from '../../../lib/client-config';
import { apiErrorMessage } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { useAppointment, useAppointmentFiles } from '../api/appointments';
import { AppointmentFilesSection } from './appointment-files-section';
import { AppointmentLifecycle } from './appointment-lifecycle';
import { AppointmentRecordText } from './appointment-record-text';
import { useAppointmentEdit } from './use-appointment-edit';

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

interface DetailProps {
  onBack: () => void;
  onOpenPetRecord?: (petId: number) => void;
}

/**
 * docs/product-rules.md#appointment-records Appointment detail, for the three roles; the server shapes the appointment
 * per role (`viewer`), so a customer's answer has no observations to show. docs/product-rules.md#states: a customer
 * edits the chief complaint, a vet the observations; both add files and mark files for removal; managers only read.
 */
export function AppointmentDetail({ appointmentId, onBack, onOpenPetRecord }: DetailProps & { appointmentId: number }) {
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
}: DetailProps & { appointment: AppointmentDto; locale: Locale }) {
  const { t } = useTranslation();
  const files = useAppointmentFiles(appointment.appointment_id);
  const edit = useAppointmentEdit(appointment, files.data ?? [], locale);

  return (
    <Stack gap="lg">
      <AppointmentSummary appointment={appointment} locale={locale} onOpenPetRecord={onOpenPetRecord} />
      {!edit.editing && <AppointmentLifecycle appointment={appointment} locale={locale} />}
      <AppointmentRecordText appointment={appointment} edit={edit} />
      <AppointmentFilesSection appointmentId={appointment.appointment_id} files={files} edit={edit} locale={locale} />

      {edit.progress !== null && (
        <Stack gap={4}>
          <Text size="sm">{t('appointment.uploading', { percent: Math.round(edit.progress * 100) })}</Text>
          <Progress value={edit.progress * 100} aria-label={t('appointment.upload_progress')} />
        </Stack>
      )}

      <Group justify="flex-end">
        {edit.editing ? (
          <>
            <Button variant="default" onClick={edit.cancel} disabled={edit.saving}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void edit.save()} loading={edit.saving}>
              {t('common.save')}
            </Button>
          </>
        ) : (
          <>
            <Button variant="default" onClick={onBack}>
              {t('common.back')}
            </Button>
            {edit.editableField && <Button onClick={edit.start}>{t('appointment.modify')}</Button>}
          </>
        )}
      </Group>
    </Stack>
  );
}

/** Schedule, status, the parties and the pet (with its record when the screen offers one). */
function AppointmentSummary({
  appointment,
  locale,
  onOpenPetRecord,
}: Pick<DetailProps, 'onOpenPetRecord'> & { appointment: AppointmentDto; locale: Locale }) {
  const { t } = useTranslation();
  const insurance = clientConfig().insurance_enabled;
  return (
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
  );
}
