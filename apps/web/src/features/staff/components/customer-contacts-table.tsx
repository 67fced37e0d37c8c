import type { ReactNode } from 'react';
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
      rows={rows}
      rowKey={(row) => row.user_id}
      columns={[
        { header: t('staff.id'), cell: (row) => row.user_id },
        { header: t('staff.name'), cell: (row) => row.name },
        { header: t('staff.email'), cell: (row) => row.email },
        { header: t('staff.phone'), cell: (row) => row.phone },
        { header: t('customer.address'), cell: (row) => row.address },
        { header: t('customer.tax_id'), cell: (row) => row.tax_id },
      ]}
      actions={operations && { header: t('staff.operations'), cell: operations }}
      minWidth={800}
      highlightOnHover
    />
  );
}
