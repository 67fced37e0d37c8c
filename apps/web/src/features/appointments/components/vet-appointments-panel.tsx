import { useMemo, useState } from 'react';
import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { APPOINTMENT_STATUSES } from '@vetcall/shared/appointment-status';
import { todayKey } from '@vetcall/shared/dates';
import { browserTimeZone } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { useVetAppointments } from '../api/appointments';
import { defaultFilter, filterDateBounds, filterProblems } from '../appointment-filters';
import { PagedAppointments } from './appointments-table';
import { BELOW_INPUT_LABEL, DateRangeFields } from './date-range-fields';
import { RecordViewModals, useRecordViews } from './record-views';

/**
 * SPEC §2.11 vet appointments: the vet's own appointments between two dates (default 15 days either
 * side of today), filtered by status; a row opens the detail, where the vet writes observations.
 */
export function VetAppointmentsPanel({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const timeZone = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), timeZone), [timeZone]);
  const bounds = filterDateBounds(today);
  const [filter, setFilter] = useState(() => defaultFilter(today));
  const [status, setStatus] = useState('');
  const problems = filterProblems(filter, bounds);
  const valid = Object.keys(problems).length === 0;
  const appointments = useVetAppointments(vetId, valid ? { from: filter.from, to: filter.to } : null, locale, timeZone);
  const views = useRecordViews();

  return (
    <Stack>
      <Group align="flex-start">
        <DateRangeFields
          from={filter.from}
          to={filter.to}
          bounds={bounds}
          problems={problems}
          onChange={(range) => setFilter({ ...filter, ...range })}
        />
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
            setFilter(defaultFilter(today));
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
