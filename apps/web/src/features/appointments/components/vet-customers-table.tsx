import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../../components/ui/query-content';
import { CustomerContactsTable } from '../../staff/components/customer-contacts-table';
import { useVetCustomers } from '../api/appointments';

/** docs/product-rules.md#vet-screens vet customers: the customers who have appointments with this vet. */
export function VetCustomersTable({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const customers = useVetCustomers(vetId);
  return (
    <QueryContent query={customers} errorKey="vet_customers.load_error" emptyKey="vet_customers.empty">
      {(rows) => <CustomerContactsTable rows={rows} label={t('vet_customers.table_label')} />}
    </QueryContent>
  );
}
