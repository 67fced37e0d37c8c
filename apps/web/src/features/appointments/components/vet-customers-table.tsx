import { Alert, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { apiErrorMessage } from '../../../lib/form-errors';
import { CustomerContactsTable } from '../../staff/components/customer-contacts-table';
import { useVetCustomers } from '../api/appointments';

/**
 * docs/product-rules.md#vet-screens vet customers: the customers who have appointments with this vet, by name, a
 * page at a time (docs/decisions/015-every-list-in-keyset-pages.md).
 */
export function VetCustomersTable({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const query = useVetCustomers(vetId);
  if (query.isPending) return <Loader aria-label={t('app.loading')} />;
  if (query.isError && !query.data) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, query.error, 'vet_customers.load_error')}
      </Alert>
    );
  }
  const rows = query.data.pages.flatMap((page) => page.customers);
  if (rows.length === 0) return <Text c="dimmed">{t('vet_customers.empty')}</Text>;
  return (
    <Stack gap="sm">
      <CustomerContactsTable rows={rows} label={t('vet_customers.table_label')} />
      {query.isFetchNextPageError && (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, query.error, 'vet_customers.load_error')}
        </Alert>
      )}
      <LoadMoreButton query={query} label={t('vet_customers.load_more')} />
    </Stack>
  );
}
