import { MyAppointmentsPanel } from '../appointments/components/my-appointments-panel';
import { CustomerModePage } from './customer-mode-page';

/** /customer?mode=appointments: the customer's own appointments, in a chunk of their own (customer-page.tsx). */
export function MyAppointmentsPage() {
  return <CustomerModePage mode="appointments">{() => <MyAppointmentsPanel />}</CustomerModePage>;
}
