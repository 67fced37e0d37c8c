import { useMemo, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  MY_APPOINTMENTS_WHEN,
  type MyAppointmentItem,
  type MyAppointmentsWhen,
} from '@vetcall/shared/schemas/appointment';
import { DataTable } from '../../../components/ui/data-table';
import { apiErrorMessage } from '../../../lib/form-errors';
import { browserTimeZone, formatDateTime, formatEuros } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { useMyAppointments } from '../api/appointments';
import { CancelAppointmentModal, type CancelTarget, cancelTargetOfRow } from './cancel-appointment-modal';
import { RescheduleModal } from './reschedule-modal';
import { RecordViewModals, useRecordViews } from './record-views';

/**
 * The customer's own appointments (/customer?mode=appointments): upcoming (soonest first, still in an open
 * room included) and past (latest first), in the browser's zone, named. A row opens the appointment
 * detail; Reschedule and Cancel show where the server's terms allow them, and ask first.
 */
export function MyAppointmentsPanel() {
  const { t } = useTranslation();
  const [when, setWhen] = useState<MyAppointmentsWhen>('upcoming');
  const [canceling, setCanceling] = useState<CancelTarget>();
  const [rescheduling, setRescheduling] = useState<number>();
  const views = useRecordViews();
  const timeZone = useMemo(() => browserTimeZone(), []);

  return (
    <Stack>
      <Tabs value={when} onChange={(value) => setWhen(value === 'past' ? 'past' : 'upcoming')} keepMounted={false}>
        <Tabs.List aria-label={t('my_appointments.tabs_label')}>
          {MY_APPOINTMENTS_WHEN.map((value) => (
            <Tabs.Tab key={value} value={value}>
              {t(`my_appointments.${value}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {MY_APPOINTMENTS_WHEN.map((value) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t('my_appointments.time_zone_note', { zone: timeZone })}
              </Text>
              <MyAppointmentsList
                when={value}
                onOpen={(item) => views.open({ kind: 'appointment', appointmentId: item.appointment_id })}
                onCancel={(item) => setCanceling(cancelTargetOfRow(item))}
                onReschedule={(item) => setRescheduling(item.appointment_id)}
              />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
      <RecordViewModals views={views} />
      <CancelAppointmentModal item={canceling} onClose={() => setCanceling(undefined)} />
      <RescheduleModal appointmentId={rescheduling} onClose={() => setRescheduling(undefined)} />
    </Stack>
  );
}

function MyAppointmentsList({
  when,
  onOpen,
  onCancel,
  onReschedule,
}: {
  when: MyAppointmentsWhen;
  onOpen: (item: MyAppointmentItem) => void;
  onCancel: (item: MyAppointmentItem) => void;
  onReschedule: (item: MyAppointmentItem) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const query = useMyAppointments(when, locale);
  if (query.isLoading) return <Loader aria-label={t('app.loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, query.error, 'my_appointments.load_error')}
      </Alert>
    );
  }
  if (!query.data) return null;
  const items = query.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <Text c="dimmed">{t(`my_appointments.empty_${when}`)}</Text>;

  return (
    <Stack gap="sm">
      <DataTable
        label={t('my_appointments.table_label')}
        rows={items}
        rowKey={(item) => item.appointment_id}
        onRowClick={onOpen}
        columns={[
          { header: t('my_appointments.schedule'), cell: (item) => formatDateTime(item.schedule, locale) },
          { header: t('my_appointments.pet'), cell: (item) => item.pet_name },
          { header: t('my_appointments.vet'), cell: (item) => item.vet_name },
          { header: t('my_appointments.status'), cell: (item) => item.appointment_status },
          { header: t('my_appointments.price'), cell: (item) => formatEuros(item.price, locale) },
        ]}
        actions={{
          header: t('my_appointments.actions'),
          cell: (item) => {
            const names = { pet: item.pet_name, when: formatDateTime(item.schedule, locale) };
            return (
              <>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => onOpen(item)}
                  aria-label={t('my_appointments.details_named', names)}
                >
                  {t('my_appointments.details')}
                </Button>
                {item.reschedule.allowed && (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => onReschedule(item)}
                    aria-label={t('my_appointments.reschedule_named', names)}
                  >
                    {t('my_appointments.reschedule')}
                  </Button>
                )}
                {item.cancel.allowed && (
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    onClick={() => onCancel(item)}
                    aria-label={t('my_appointments.cancel_named', names)}
                  >
                    {t('my_appointments.cancel')}
                  </Button>
                )}
              </>
            );
          },
        }}
        minWidth={760}
        maxHeight={420}
        scrollRegion={t('my_appointments.table_region')}
        highlightOnHover
        stickyHeader
      />
      {query.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('my_appointments.load_more')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
