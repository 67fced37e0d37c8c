import { Alert, Anchor, Group, Loader, Table } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../../lib/form-errors';
import { currentLocale } from '../../../lib/i18n';
import { useUsers } from '../api/staff';
import { ExportButton } from './export-button';

/** SPEC §2.12: customers are view-only for managers; a manager can open a customer's data. */
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
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover aria-label={t('modes.manager.customers')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('staff.id')}</Table.Th>
                <Table.Th>{t('staff.name')}</Table.Th>
                <Table.Th>{t('staff.email')}</Table.Th>
                <Table.Th>{t('staff.phone')}</Table.Th>
                <Table.Th>{t('customer.address')}</Table.Th>
                <Table.Th>{t('customer.tax_id')}</Table.Th>
                <Table.Th>{t('staff.operations')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {customers.data.map((row) => (
                <Table.Tr key={row.user_id}>
                  <Table.Td>{row.user_id}</Table.Td>
                  <Table.Td>{row.name}</Table.Td>
                  <Table.Td>{row.email}</Table.Td>
                  <Table.Td>{row.phone}</Table.Td>
                  <Table.Td>{row.address}</Table.Td>
                  <Table.Td>{row.tax_id}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/customerdata?lang=${currentLocale()}&access=manager&email=${encodeURIComponent(row.email)}`}
                      aria-label={t('staff.open_customer_named', { name: row.name })}
                    >
                      {t('staff.open_customer')}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
