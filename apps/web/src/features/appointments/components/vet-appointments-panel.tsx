import { useState } from 'react';
import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { APPOINTMENT_STATUSES } from '@vetcall/shared/appointment-status';
import { currentLocale } from '../../../lib/i18n';
import { useVetAppointments } from '../api/appointments';
import { useAppointmentFilter } from '../use-appointment-filter';
import { PagedAppointments } from './appointments-table';
import { BELOW_INPUT_LABEL, DateRangeFields } from './date-range-fields';
import { RecordViewModals, useRecordViews } from './record-views';

/**
 * docs/product-rules.md#vet-screens vet appointments: the vet's own appointments between two dates (default 15 days
 * either side of today), filtered by status; a row opens the detail, where the vet writes observations.
 */
export function VetAppointmentsPanel({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { timeZone, filter, valid, reset, dateRange } = useAppointmentFilter();
  const [status, setStatus] = useState('');
  const appointments = useVetAppointments(vetId, valid ? { from: filter.from, to: filter.to } : null, locale, timeZone);
  const views = useRecordViews();

  return (
    <Stack>
      <Group align="flex-start">
        <DateRangeFields {...dateRange} />
        <NativeSelect
          label={t('appointments.status_filter')}
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value)}
          data={[
            { value: '', label: t('appointments.all_statuses') },
            ...APPOINTMENT_STATUSES.map((key) => ({ value: key, label: t(`appointment_status.${key}`) })),
          ]}
        />
        <Button
          variant="default"
          mt={BELOW_INPUT_LABEL}
          onClick={() => {
            reset();
            setStatus('');
          }}
        >
          {t('appointments.reset_filter')}
        </Button>
      </Group>
      {valid && (
        <PagedAppointments
          query={appointments}
          showVet={false}
          keep={(item) => !status || item.appointment_status_key === status}
          onOpen={(item) => views.open({ kind: 'appointment', appointmentId: item.appointment_id })}
        />
      )}
      <RecordViewModals views={views} />
    </Stack>
  );
}
