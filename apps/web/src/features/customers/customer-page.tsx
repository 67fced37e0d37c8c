import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { currentMode } from '../../app/modes';
import { BookingPage } from '../booking/booking-page';

/**
 * The customer's appointments come in a chunk of their own: the booking screen, which a customer sees first and
 * the server draws, does not load the lists, their record views and dialogs (issue 16: the customer page's
 * start). Moving to that mode is a navigation, which React Router runs in a transition: the booking screen stays
 * until the chunk is in.
 */
const MyAppointmentsPage = lazy(() =>
  import('./my-appointments-page').then((module) => ({ default: module.MyAppointmentsPage })),
);

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
