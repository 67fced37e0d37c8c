import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { currentMode } from '../../app/modes';
import { useSession } from '../../lib/auth-store';
import { MyAppointmentsPanel } from '../appointments/components/my-appointments-panel';
import { BookingPage } from '../booking/booking-page';

/**
 * /customer, by mode (?mode=, chosen in the navbar like the vet's and manager's): appointment_req, the
 * booking screen (docs/product-rules.md#booking, the default), or appointments, the customer's own appointments. A mode rather
 * than a new path keeps the route table (docs/product-rules.md#routes) as it is, and moving between the two is not an entry
 * for the navigation guard.
 */
export function CustomerPage() {
  const [search] = useSearchParams();
  return currentMode('customer', search) === 'appointments' ? <MyAppointmentsPage /> : <BookingPage />;
}

function MyAppointmentsPage() {
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
