import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { currentMode } from '../../app/modes';
import { useSession } from '../../lib/auth-store';
import { AccessCodesPanel } from '../access-codes/access-codes-panel';
import { AuditLogPanel } from '../audit/audit-log-panel';
import { ManagerAppointmentsPanel } from '../appointments/components/manager-appointments-panel';
import { VetsAvailabilityPanel } from '../availability/vets-availability-panel';
import { UndeliveredMailPanel } from '../failed-mail/undelivered-mail-panel';
import { ProductsPanel } from '../products/products-panel';
import { CustomersTable } from '../staff/components/customers-table';
import { StaffTable } from '../staff/components/staff-table';

/** docs/product-rules.md#manager-screens Manager mode: one screen per mode, chosen in the navbar (?mode=). */
export function ManagerPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search] = useSearchParams();
  if (user?.type !== 'manager') return null;
  const mode = currentMode('manager', search);
  return (
    <AuthenticatedLayout heading={t(`modes.manager.${mode}`)}>
      <div data-testid="mode-content" data-mode={mode}>
        {mode === 'vets' && <StaffTable type="vet" />}
        {mode === 'managers' && <StaffTable type="manager" />}
        {mode === 'customers' && <CustomersTable />}
        {mode === 'products' && <ProductsPanel />}
        {mode === 'appointments_access_codes' && <AccessCodesPanel />}
        {mode === 'vets_availability' && <VetsAvailabilityPanel />}
        {mode === 'appointments' && <ManagerAppointmentsPanel />}
        {mode === 'undelivered_mail' && <UndeliveredMailPanel />}
        {mode === 'audit' && <AuditLogPanel />}
      </div>
    </AuthenticatedLayout>
  );
}
