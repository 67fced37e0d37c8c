import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentDto } from '@vetcall/shared/schemas/appointment';
import { actionErrorMessage } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { APPOINTMENT_KEY, APPOINTMENT_LISTS_KEY, completeAppointment } from '../api/appointments';
import { CancelAppointmentModal, type CancelTarget, cancelTargetOf } from './cancel-appointment-modal';
import { RescheduleModal } from './reschedule-modal';

/**
 * What became of the appointment (who cancelled, when and why, the refund; when it was completed) and what
 * the reader may do with it now: reschedule, cancel, mark as done. The buttons follow the server's own terms
 * (lifecycle.can), so the screen never offers what the server would refuse.
 */
export function AppointmentLifecycle({ appointment, locale }: { appointment: AppointmentDto; locale: Locale }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [canceling, setCanceling] = useState<CancelTarget>();
  const [rescheduling, setRescheduling] = useState<number>();
  const { lifecycle } = appointment;
  const complete = useMutation({
    mutationFn: () => completeAppointment(appointment.appointment_id, locale),
    onSuccess: async () => {
      notifySuccess(t('appointment_lifecycle.completed_ok'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_LISTS_KEY] }),
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_KEY, appointment.appointment_id] }),
      ]);
    },
  });
  const history = lifecycleHistory(t, appointment, locale);
  const { can } = lifecycle;
  const anyAction = can.reschedule.allowed || can.cancel.allowed || can.complete.allowed;

  return (
    <Stack gap="xs">
      {history.length > 0 && (
        <Alert color="gray" variant="light">
          {history.map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
        </Alert>
      )}
      {complete.isError && (
        <Alert color="red" role="alert">
          {actionErrorMessage(t, complete.error, 'appointment_lifecycle.complete_error')}
        </Alert>
      )}
      {anyAction && (
        <Group gap="xs" role="group" aria-label={t('appointment_lifecycle.actions_label')}>
          {can.reschedule.allowed && (
            <Button variant="light" onClick={() => setRescheduling(appointment.appointment_id)}>
              {t('appointment_lifecycle.reschedule')}
            </Button>
          )}
          {can.complete.allowed && (
            <Button variant="light" color="teal" onClick={() => complete.mutate()} loading={complete.isPending}>
              {t('appointment_lifecycle.complete')}
            </Button>
          )}
          {can.cancel.allowed && (
            <Button variant="light" color="red" onClick={() => setCanceling(cancelTargetOf(appointment))}>
              {t('appointment_lifecycle.cancel')}
            </Button>
          )}
        </Group>
      )}
      <CancelAppointmentModal item={canceling} onClose={() => setCanceling(undefined)} />
      <RescheduleModal appointmentId={rescheduling} onClose={() => setRescheduling(undefined)} />
    </Stack>
  );
}

/** The lines that tell what became of it: cancelled (by whom, why, the refund) or completed. */
function lifecycleHistory(
  t: (key: string, values?: Record<string, string>) => string,
  appointment: AppointmentDto,
  locale: Locale,
): string[] {
  const { lifecycle } = appointment;
  const lines: string[] = [];
  if (lifecycle.canceled_at) {
    const when = formatDateTime(lifecycle.canceled_at, locale);
    lines.push(
      lifecycle.canceled_by_name
        ? t('appointment_lifecycle.canceled_by', { name: lifecycle.canceled_by_name, when })
        : t('appointment_lifecycle.canceled_by_vetcall', { when }),
    );
    if (lifecycle.cancel_reason) lines.push(t('appointment_lifecycle.reason', { reason: lifecycle.cancel_reason }));
    if (lifecycle.refund_status === 'refunded' && lifecycle.refunded_at) {
      lines.push(t('appointment_lifecycle.refund_refunded', { when: formatDateTime(lifecycle.refunded_at, locale) }));
    } else if (lifecycle.refund_status === 'pending') {
      lines.push(t('appointment_lifecycle.refund_pending'));
    } else if (appointment.price > 0 && lifecycle.refund_status === 'none') {
      lines.push(t('appointment_lifecycle.refund_none'));
    }
  }
  if (lifecycle.completed_at) {
    lines.push(t('appointment_lifecycle.completed_at', { when: formatDateTime(lifecycle.completed_at, locale) }));
  }
  return lines;
}
