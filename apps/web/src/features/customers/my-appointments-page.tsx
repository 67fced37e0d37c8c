import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { useSession } from '../../lib/auth-store';
import { MyAppointmentsPanel } from '../appointments/components/my-appointments-panel';

/** /customer?mode=appointments: the customer's own appointments (customer-page.tsx). */
export function MyAppointmentsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (user?.type !== 'customer') return null;
  return (
    <AuthenticatedLayout heading={t('modes.customer.appointments')}>
      <div data-testid="mode-content" data-mode="appointments">
        <MyAppointmentsPanel />
      </div>
    </AuthenticatedLayout>
  );
}
