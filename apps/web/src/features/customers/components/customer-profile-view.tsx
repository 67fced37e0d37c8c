import { useTranslation } from 'react-i18next';
import type { Customer } from '@vetcall/shared/schemas/customer';
import { DataList } from '../../../components/ui/data-list';

/** The customer's data, read-only (docs/product-rules.md#states Profile editing: read-only or editing). */
export function CustomerProfileView({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const rows: [string, string][] = [
    [t('customer.name'), customer.name],
    [t('customer.email'), customer.email],
    [t('customer.phone'), customer.phone],
    [t('customer.tax_id'), customer.tax_id],
    [t('customer.address'), customer.address],
    [t('customer.postal_code'), customer.postal_code],
    [t('customer.city'), customer.city],
    [t('customer.state'), customer.state],
    [t('customer.country'), t(`countries.${customer.country}`, { defaultValue: customer.country })],
    [t('customer.vet_center'), customer.vet_center || '—'],
  ];
  return <DataList items={rows} cols={{ base: 1, xs: 2, md: 3 }} />;
}
