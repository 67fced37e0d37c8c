import { useMemo, useState } from 'react';
import { Alert, Box, Button, Group, Loader, Stack, Table, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  MY_APPOINTMENTS_WHEN,
  type MyAppointmentItem,
  type MyAppointmentsWhen,
} from '@vetcall/shared/schemas/appointment';
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
      <Box
        role="region"
        aria-label={t('my_appointments.table_region')}
        tabIndex={0}
        mah={420}
        style={{ overflow: 'auto' }}
      >
        <Table striped highlightOnHover stickyHeader miw={760} aria-label={t('my_appointments.table_label')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('my_appointments.schedule')}</Table.Th>
              <Table.Th>{t('my_appointments.pet')}</Table.Th>
              <Table.Th>{t('my_appointments.vet')}</Table.Th>
              <Table.Th>{t('my_appointments.status')}</Table.Th>
              <Table.Th>{t('my_appointments.price')}</Table.Th>
              <Table.Th>{t('my_appointments.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => {
              const whenText = formatDateTime(item.schedule, locale);
              const names = { pet: item.pet_name, when: whenText };
              return (
                <Table.Tr key={item.appointment_id} onClick={() => onOpen(item)} style={{ cursor: 'pointer' }}>
                  <Table.Td>{whenText}</Table.Td>
                  <Table.Td>{item.pet_name}</Table.Td>
                  <Table.Td>{item.vet_name}</Table.Td>
                  <Table.Td>{item.appointment_status}</Table.Td>
                  <Table.Td>{formatEuros(item.price, locale)}</Table.Td>
                  <Table.Td>
                    {/* The row opens the detail too; the buttons stop it so one click is one action. */}
                    <Group gap="xs" wrap="nowrap" onClick={(event) => event.stopPropagation()}>
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
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Box>
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
