import { useMemo, useState } from 'react';
import { Alert, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import type { AppointmentDto } from '@vetcall/shared/schemas/appointment';
import type { FreeSlotDto } from '@vetcall/shared/schemas/scheduling';
import { actionErrorMessage, apiErrorMessage } from '../../../lib/form-errors';
import { browserTimeZone, formatDateTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { notifySuccess } from '../../../lib/notify';
import { lastBookableDate } from '../../scheduler/booking-window';
import { createHold, releaseHold } from '../../scheduler/holds-api';
import { SlotPicker } from '../../scheduler/slot-picker';
import { APPOINTMENT_KEY, APPOINTMENT_LISTS_KEY, rescheduleAppointment, useAppointment } from '../api/appointments';

/**
 * Moves an appointment (POST /api/appointments/{id}/reschedule): the new time is picked among the vet's
 * free slots of the same profile, held in the reader's name, then the appointment is moved to the hold.
 * If the move is refused the hold is given back at once, so the time is free for others.
 */
export function RescheduleModal({
  appointmentId,
  onClose,
}: {
  appointmentId: number | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={appointmentId !== undefined}
      onClose={onClose}
      size="lg"
      title={t('reschedule.title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {appointmentId !== undefined && (
        <RescheduleForm key={appointmentId} appointmentId={appointmentId} onDone={onClose} />
      )}
    </Modal>
  );
}

function RescheduleForm({ appointmentId, onDone }: { appointmentId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const appointment = useAppointment(appointmentId, locale);
  if (appointment.isPending) return <Loader aria-label={t('app.loading')} />;
  if (appointment.isError) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, appointment.error, 'appointment.load_error')}
      </Alert>
    );
  }
  return <NewTimePicker appointment={appointment.data} onDone={onDone} />;
}

function NewTimePicker({ appointment, onDone }: { appointment: AppointmentDto; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const tz = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), tz), [tz]);
  const [failure, setFailure] = useState<string | null>(null);
  const { lifecycle } = appointment;
  const vetId = lifecycle.vet_id;

  async function moveTo(slot: FreeSlotDto): Promise<boolean> {
    setFailure(null);
    let eventId: string | undefined;
    try {
      eventId = (await createHold({ vet_id: vetId!, profile_id: lifecycle.profile_id ?? undefined, start: slot.start }))
        .event_id;
      const moved = await rescheduleAppointment(appointment.appointment_id, { event_id: eventId }, locale);
      notifySuccess(t('reschedule.done', { when: formatDateTime(moved.schedule, locale) }));
      onDone();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_LISTS_KEY] }),
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_KEY, appointment.appointment_id] }),
      ]);
      return true;
    } catch (error) {
      if (eventId) await releaseHold(eventId).catch(() => undefined);
      setFailure(actionErrorMessage(t, error, 'reschedule.error'));
      return false;
    }
  }

  return (
    <Stack>
      <Text size="sm">
        {t('reschedule.current', {
          when: formatDateTime(appointment.schedule, locale),
          pet: appointment.pet_name,
          vet: appointment.vet_name,
        })}
      </Text>
      <Text size="sm" c="dimmed">
        {[
          t('reschedule.price_note'),
          t(
            appointment.appointment_status_key === 'TK_Requested'
              ? 'reschedule.requested_note'
              : 'reschedule.confirmed_note',
          ),
        ].join(' ')}
      </Text>
      {!lifecycle.can.reschedule.allowed && (
        <Alert color="orange" role="alert">
          {t(`errors.${lifecycle.can.reschedule.reason}`)}
        </Alert>
      )}
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {lifecycle.can.reschedule.allowed && vetId !== null && (
        <SlotPicker
          vetId={vetId}
          profileId={lifecycle.profile_id ?? undefined}
          tz={tz}
          firstDate={today}
          // Customers book within the window; the vet and managers may move further ahead.
          lastDate={appointment.viewer === 'customer' ? lastBookableDate(today) : undefined}
          initialDate={today}
          confirmLabel={t('reschedule.confirm')}
          onConfirm={moveTo}
        />
      )}
    </Stack>
  );
}
