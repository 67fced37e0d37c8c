/**
 * Appointment status keys. SPEC §4 shows only TK_Confirmed; the lifecycle around it is ours and is
 * written down in docs/appointment-lifecycle.md (booking issue).
 */
export const APPOINTMENT_STATUSES = [
  'TK_PendingPayment',
  'TK_PaymentFailed',
  'TK_Requested',
  'TK_Confirmed',
  'TK_Canceled',
  'TK_Completed',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
