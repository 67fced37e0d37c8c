import { Alert, Anchor, Group, Loader } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../lib/form-errors';
import { currentLocale } from '../../../lib/i18n';
import { useUsers } from '../api/staff';
import { CustomerContactsTable } from './customer-contacts-table';
import { ExportButton } from './export-button';

/**
 * docs/product-rules.md#manager-screens: customers are view-only for managers; a manager can open a customer's data.
 */
export function CustomersTable() {
  const { t } = useTranslation();
  const customers = useUsers('customer');
  return (
    <>
      <Group justify="flex-end" mb="md">
        <ExportButton list="customers" />
      </Group>
      {customers.isPending && <Loader aria-label={t('app.loading')} />}
      {customers.isError && <Alert color="red">{apiErrorMessage(t, customers.error)}</Alert>}
      {customers.data && (
        <CustomerContactsTable
          rows={customers.data.map((row) => ({
            ...row,
            phone: row.phone ?? '',
            address: row.address ?? '',
            tax_id: row.tax_id ?? '',
          }))}
          label={t('modes.manager.customers')}
          operations={(row) => (
            <Anchor
              component={Link}
              to={`/customerdata?lang=${currentLocale()}&access=manager&email=${encodeURIComponent(row.email)}`}
              aria-label={t('staff.open_customer_named', { name: row.name })}
            >
              {t('staff.open_customer')}
            </Anchor>
          )}
        />
      )}
    </>
  );
}
