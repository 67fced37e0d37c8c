import type { ReactNode } from 'react';
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../../components/ui/data-table';

export interface CustomerContact {
  user_id: number;
  name: string;
  email: string;
  phone: string;
  address: string;
  tax_id: string;
}

/**
 * The customer table of docs/product-rules.md#vet-screens (vet customers mode) and #manager-screens (manager customers
 * mode): id, name, email, phone, address and VAT number, with an operations column when `operations` is given.
 */
export function CustomerContactsTable<Row extends CustomerContact>({
  rows,
  label,
  operations,
}: {
  rows: Row[];
  label: string;
  operations?: (row: Row) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <DataTable
      label={label}
      columns={[
        t('staff.id'),
        t('staff.name'),
        t('staff.email'),
        t('staff.phone'),
        t('customer.address'),
        t('customer.tax_id'),
        operations && t('staff.operations'),
      ]}
      minWidth={800}
      highlightOnHover
    >
      {rows.map((row) => (
        <Table.Tr key={row.user_id}>
          <Table.Td>{row.user_id}</Table.Td>
          <Table.Td>{row.name}</Table.Td>
          <Table.Td>{row.email}</Table.Td>
          <Table.Td>{row.phone}</Table.Td>
          <Table.Td>{row.address}</Table.Td>
          <Table.Td>{row.tax_id}</Table.Td>
          {operations && <Table.Td>{operations(row)}</Table.Td>}
        </Table.Tr>
      ))}
    </DataTable>
  );
}
