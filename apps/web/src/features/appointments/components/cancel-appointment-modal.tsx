import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CANCEL_REASON_MAX } from '@vetcall/shared/constants';
import type { AppointmentViewer, CancellationTerms } from '@vetcall/shared/appointment-rules';
import {
  type AppointmentDto,
  cancelAppointmentSchema,
  type MyAppointmentItem,
} from '@vetcall/shared/schemas/appointment';
import { actionErrorMessage } from '../../../lib/form-errors';
import { formatDateTime, formatEuros } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { notifySuccess } from '../../../lib/notify';
import { APPOINTMENT_KEY, APPOINTMENT_LISTS_KEY, cancelAppointment } from '../api/appointments';

/** Money changed hands only once the appointment was paid: one waiting for its payment, or free, has none. */
export const isPaidAppointment = (item: Pick<MyAppointmentItem, 'price' | 'appointment_status_key'>) =>
  item.price > 0 && item.appointment_status_key !== 'TK_PendingPayment';

/** What the dialog needs of an appointment: a row of My appointments, or an appointment detail. */
export interface CancelTarget extends Pick<
  MyAppointmentItem,
  'appointment_id' | 'schedule' | 'pet_name' | 'vet_name' | 'price' | 'appointment_status_key'
> {
  viewer: AppointmentViewer;
  /** The server's cancellationTerms for the reader, now. */
  cancel: CancellationTerms;
}

export const cancelTargetOfRow = (item: MyAppointmentItem): CancelTarget => ({ ...item, viewer: 'customer' });
export const cancelTargetOf = (appointment: AppointmentDto): CancelTarget => ({
  ...appointment,
  cancel: appointment.lifecycle.can.cancel,
});

/**
 * Asks before an appointment is cancelled (POST /api/appointments/{id}/cancel), with an optional reason told
 * to the other party. What happens to the money is the server's own cancellation terms: for the customer,
 * refunded in full or, within 24 hours of the start, a warning that nothing is refunded; for the vet and
 * managers, the customer is always refunded.
 */
export function CancelAppointmentModal({ item, onClose }: { item: CancelTarget | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={item !== undefined}
      onClose={onClose}
      title={t('my_appointments.cancel_title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {item && <CancelAppointmentForm key={item.appointment_id} item={item} onDone={onClose} />}
    </Modal>
  );
}

function CancelAppointmentForm({ item, onDone }: { item: CancelTarget; onDone: () => void }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const cancel = useMutation({
    mutationFn: () => cancelAppointment(item.appointment_id, cancelAppointmentSchema.parse({ reason }), locale),
    onSuccess: async () => {
      notifySuccess(t('my_appointments.canceled'));
      onDone();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_LISTS_KEY] }),
        queryClient.invalidateQueries({ queryKey: [APPOINTMENT_KEY, item.appointment_id] }),
      ]);
    },
  });
  const price = formatEuros(item.price, locale);
  const paid = isPaidAppointment(item);
  const refund = item.cancel.allowed && item.cancel.refund;
  const byCustomer = item.viewer === 'customer';

  return (
    <Stack>
      <Text size="sm">
        {t('my_appointments.cancel_summary', {
          pet: item.pet_name,
          vet: item.vet_name,
          when: formatDateTime(item.schedule, locale),
        })}
      </Text>
      {paid && byCustomer && !refund && (
        <Alert color="orange" title={t('my_appointments.refund_no_title')} role="alert">
          {t('my_appointments.refund_no', { price })}
        </Alert>
      )}
      {paid && refund && (
        <Text size="sm">
          {t(byCustomer ? 'my_appointments.refund_yes' : 'my_appointments.refund_customer', { price })}
        </Text>
      )}
      <Textarea
        label={t('my_appointments.reason_label')}
        description={t(
          byCustomer ? 'my_appointments.reason_description_customer' : 'my_appointments.reason_description_staff',
        )}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        maxLength={CANCEL_REASON_MAX}
        autosize
        minRows={2}
        data-autofocus
      />
      {cancel.isError && (
        <Alert color="red" role="alert">
          {actionErrorMessage(t, cancel.error, 'my_appointments.cancel_error')}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={cancel.isPending}>
          {t('my_appointments.keep')}
        </Button>
        <Button color="red" onClick={() => cancel.mutate()} loading={cancel.isPending}>
          {t('my_appointments.confirm_cancel')}
        </Button>
      </Group>
    </Stack>
  );
}
