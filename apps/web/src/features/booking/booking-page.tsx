import { useDeferredValue, useMemo } from 'react';
import { Alert } from '@mantine/core';
import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { useCustomer } from '../customers/api/customers';
import { CustomerModePage } from '../customers/customer-mode-page';
import { useCustomerPets } from '../pets/api/pets';
import { usePublicVets } from '../staff/api/staff';
import { BookingForm } from './booking-form';
import { asksToRestoreBooking, keptBookingDraft } from './booking-draft';

/**
 * /customer, mode appointment_req (docs/product-rules.md#booking): the customer's booking screen; back from a canceled
 * payment, with the form as it was.
 */
export function BookingPage() {
  return <CustomerModePage mode="appointment_req">{(user) => <BookingContent email={user.email} />}</CustomerModePage>;
}

const NONE: never[] = [];

/**
 * The form shows at once, its fields held until the vets and pets are in (the pet is then chosen from them).
 * The server draws this same waiting form (docs/decisions/027-the-customer-home-drawn-on-the-server.md),
 * and the app's takes its place with nothing moving. The form with the data is drawn in a render React may
 * interrupt (deferred values), not in the one the data's arrival starts, which it cannot (a phone spent some
 * 200 ms on it): that one only finds the same form element as before and stops there.
 */
function BookingContent({ email }: { email: string }) {
  const { t } = useTranslation();
  const restore = asksToRestoreBooking(useLocation().state);
  const customer = useCustomer(email);
  const petsQuery = useCustomerPets(customer.data?.customer_id, currentLocale());
  const vetsQuery = usePublicVets(true);
  const pets = useDeferredValue(petsQuery.data);
  const vets = useDeferredValue(vetsQuery.data);
  const failed = [vetsQuery, customer, petsQuery].find((query) => query.isError);
  const loading = pets === undefined || vets === undefined;
  const form = useMemo(
    () => (
      <BookingForm
        loading={loading}
        pets={(pets ?? NONE).filter((pet) => !pet.archived)}
        vets={vets ?? NONE}
        customerEmail={email}
        draft={restore ? keptBookingDraft() : null}
      />
    ),
    [loading, pets, vets, email, restore],
  );
  if (failed) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, failed.error, 'booking.load_error')}
      </Alert>
    );
  }
  return form;
}
