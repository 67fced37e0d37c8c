import { Alert, Box, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AppointmentListItem, AppointmentPage } from '@vetcall/shared/schemas/appointment';
import { apiErrorMessage } from '../../../lib/form-errors';
import { formatDateTime } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import { formatEuros } from '../../../lib/format';

/**
 * The appointment lists of vets and managers (docs/product-rules.md#vet-screens, #manager-screens): a scroll region of
 * its own (docs/product-rules.md#limits: 420 px), reachable by keyboard; a row, or its Details button, opens the
 * appointment.
 */
export function AppointmentsTable({
  items,
  showVet,
  onOpen,
}: {
  items: AppointmentListItem[];
  showVet: boolean;
  onOpen: (item: AppointmentListItem) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  if (items.length === 0) return <Text c="dimmed">{t('appointments.empty')}</Text>;
  return (
    <Box role="region" aria-label={t('appointments.table_region')} tabIndex={0} mah={420} style={{ overflow: 'auto' }}>
      <Table striped highlightOnHover stickyHeader miw={showVet ? 900 : 800} aria-label={t('appointments.table_label')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('appointments.id')}</Table.Th>
            <Table.Th>{t('appointments.schedule')}</Table.Th>
            <Table.Th>{t('appointments.customer')}</Table.Th>
            <Table.Th>{t('appointments.pet')}</Table.Th>
            {showVet && <Table.Th>{t('appointments.vet')}</Table.Th>}
            <Table.Th>{t('appointments.status')}</Table.Th>
            <Table.Th>{t('appointments.status_date')}</Table.Th>
            <Table.Th>{t('appointments.price')}</Table.Th>
            <Table.Th>{t('appointments.operations')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.appointment_id} onClick={() => onOpen(item)} style={{ cursor: 'pointer' }}>
              <Table.Td>{item.appointment_id}</Table.Td>
              <Table.Td>{formatDateTime(item.schedule, locale)}</Table.Td>
              <Table.Td>{item.customer_name}</Table.Td>
              <Table.Td>{item.pet_name}</Table.Td>
              {showVet && <Table.Td>{item.vet_name}</Table.Td>}
              <Table.Td>{t(`appointment_status.${item.appointment_status_key}`)}</Table.Td>
              <Table.Td>{formatDateTime(item.status_date, locale)}</Table.Td>
              <Table.Td>{formatEuros(item.price, locale)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  onClick={(event) => {
                    // The row opens it too; one open is enough.
                    event.stopPropagation();
                    onOpen(item);
                  }}
                  aria-label={t('appointments.details_named', { id: item.appointment_id, pet: item.pet_name })}
                >
                  {t('appointments.details')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}

/** A paged list query's states: loading, a translated error, the rows, and "Load more" while pages remain. */
export function PagedAppointments({
  query,
  showVet,
  keep = () => true,
  onOpen,
}: {
  query: UseInfiniteQueryResult<InfiniteData<AppointmentPage>>;
  showVet: boolean;
  /** A filter applied to the rows loaded (the vet's status filter). */
  keep?: (item: AppointmentListItem) => boolean;
  onOpen: (item: AppointmentListItem) => void;
}) {
  const { t } = useTranslation();
  if (query.isLoading) return <Loader aria-label={t('app.loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, query.error, 'appointments.load_error')}
      </Alert>
    );
  }
  if (!query.data) return null;
  const items = query.data.pages.flatMap((page) => page.items).filter(keep);
  return (
    <Stack gap="sm">
      <AppointmentsTable items={items} showVet={showVet} onOpen={onOpen} />
      {query.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('appointments.load_more')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
