import { Button, Group, NativeSelect, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../../lib/i18n';
import { useUsers } from '../../staff/api/staff';
import { ExportButton } from '../../staff/components/export-button';
import { useManagerAppointments } from '../api/appointments';
import { mngrecordParam } from '../appointment-filters';
import { useAppointmentFilter } from '../use-appointment-filter';
import { PagedAppointments } from './appointments-table';
import { BELOW_INPUT_LABEL, DateRangeFields } from './date-range-fields';
import { RecordViewModals, useRecordViews } from './record-views';

/**
 * docs/product-rules.md#manager-screens manager appointments: vet and date filters (default 15 days either side of
 * today), Reset filter, Export to Excel of the same filter, and the list; a row opens the appointment read-only.
 */
export function ManagerAppointmentsPanel() {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { timeZone, filter, setFilter, valid, reset, dateRange } = useAppointmentFilter();
  const param = valid ? mngrecordParam(filter) : null;
  const appointments = useManagerAppointments(param, locale, timeZone);
  const vets = useUsers('vet');
  const views = useRecordViews();

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Group align="flex-start">
          <NativeSelect
            label={t('appointments.vet_filter')}
            value={filter.vet}
            onChange={(event) => setFilter({ ...filter, vet: event.currentTarget.value })}
            data={[
              { value: '', label: t('appointments.all_vets') },
              ...(vets.data ?? []).map((vet) => ({ value: String(vet.user_id), label: vet.name })),
            ]}
          />
          <DateRangeFields {...dateRange} />
          <Button variant="default" mt={BELOW_INPUT_LABEL} onClick={reset}>
            {t('appointments.reset_filter')}
          </Button>
        </Group>
        {param && (
          <Group mt={BELOW_INPUT_LABEL}>
            <ExportButton
              list="appointments"
              query={`&param=${encodeURIComponent(param)}&tz=${encodeURIComponent(timeZone)}`}
            />
          </Group>
        )}
      </Group>
      {param && (
        <PagedAppointments
          query={appointments}
          showVet
          onOpen={(item) => views.open({ kind: 'appointment', appointmentId: item.appointment_id })}
        />
      )}
      <RecordViewModals views={views} />
    </Stack>
  );
}
