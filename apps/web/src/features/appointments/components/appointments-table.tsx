import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AppointmentListItem, AppointmentPage } from '@vetcall/shared/schemas/appointment';
import { DataTable } from '../../../components/ui/data-table';
import { apiErrorMessage } from '../../../lib/form-errors';
import { formatDateTime, formatEuros } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';

/** docs/product-rules.md#limits: appointment lists scroll within 420 px. */
const TABLE_MAX_HEIGHT = 420;

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
    <DataTable
      label={t('appointments.table_label')}
      rows={items}
      rowKey={(item) => item.appointment_id}
      onRowClick={onOpen}
      columns={[
        { header: t('appointments.id'), cell: (item) => item.appointment_id },
        { header: t('appointments.schedule'), cell: (item) => formatDateTime(item.schedule, locale) },
        { header: t('appointments.customer'), cell: (item) => item.customer_name },
        { header: t('appointments.pet'), cell: (item) => item.pet_name },
        showVet && { header: t('appointments.vet'), cell: (item) => item.vet_name },
        {
          header: t('appointments.status'),
          cell: (item) => t(`appointment_status.${item.appointment_status_key}`),
        },
        { header: t('appointments.status_date'), cell: (item) => formatDateTime(item.status_date, locale) },
        { header: t('appointments.price'), cell: (item) => formatEuros(item.price, locale) },
      ]}
      actions={{
        header: t('appointments.operations'),
        cell: (item) => (
          <Button
            size="xs"
            variant="light"
            onClick={() => onOpen(item)}
            aria-label={t('appointments.details_named', { id: item.appointment_id, pet: item.pet_name })}
          >
            {t('appointments.details')}
          </Button>
        ),
      }}
      minWidth={showVet ? 900 : 800}
      maxHeight={TABLE_MAX_HEIGHT}
      scrollRegion={t('appointments.table_region')}
      highlightOnHover
      stickyHeader
    />
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
