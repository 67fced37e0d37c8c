import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { QueryContent } from '../../components/ui/query-content';
import { useSession } from '../../lib/auth-store';
import { currentLocale } from '../../lib/i18n';
import { useCustomer } from '../customers/api/customers';
import { useCustomerPets } from '../pets/api/pets';
import { usePublicVets } from '../staff/api/staff';
import { BookingForm } from './booking-form';
import { asksToRestoreBooking, keptBookingDraft } from './booking-draft';

/**
 * /customer, mode appointment_req (docs/product-rules.md#booking): the customer's booking screen; back from a canceled
 * payment, with the form as it was.
 */
export function BookingPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const restore = asksToRestoreBooking(useLocation().state);
  const isCustomer = user?.type === 'customer';
  const customer = useCustomer(isCustomer ? user.email : undefined);
  const pets = useCustomerPets(customer.data?.customer_id, currentLocale());
  const vets = usePublicVets(isCustomer);
  if (!isCustomer) return null;
  return (
    <AuthenticatedLayout heading={t('modes.customer.appointment_req')}>
      <div data-testid="mode-content" data-mode="appointment_req">
        <QueryContent query={vets} errorKey="booking.load_error">
          {(vetList) => (
            <QueryContent query={pets} errorKey="booking.load_error">
              {(petList) => (
                <BookingForm
                  pets={petList.filter((pet) => !pet.archived)}
                  vets={vetList}
                  customerEmail={user.email}
                  draft={restore ? keptBookingDraft() : null}
                />
              )}
            </QueryContent>
          )}
        </QueryContent>
      </div>
    </AuthenticatedLayout>
  );
}
