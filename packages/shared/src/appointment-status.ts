/**
 * Appointment status keys. docs/product-rules.md#states shows only TK_Confirmed; the lifecycle around it is ours and is
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

/**
 * The lifecycle (docs/appointment-lifecycle.md): every change of status the server makes is one of these.
 * PendingPayment → Requested (paid) | PaymentFailed (payment window lapsed) | Canceled (checkout canceled);
 * Requested → Confirmed (the vet confirms) | Canceled; Confirmed → Completed | Canceled. The rest are final.
 */
export const APPOINTMENT_TRANSITIONS: Readonly<Record<AppointmentStatus, readonly AppointmentStatus[]>> = {
  TK_PendingPayment: ['TK_Requested', 'TK_PaymentFailed', 'TK_Canceled'],
  TK_Requested: ['TK_Confirmed', 'TK_Canceled'],
  TK_Confirmed: ['TK_Completed', 'TK_Canceled'],
  TK_PaymentFailed: [],
  TK_Canceled: [],
  TK_Completed: [],
};

export function canTransition(from: AppointmentStatus, to: AppointmentStatus): boolean {
  return APPOINTMENT_TRANSITIONS[from].includes(to);
}

/** The statuses an appointment may move to `to` from. */
export function statusesLeadingTo(to: AppointmentStatus): AppointmentStatus[] {
  return APPOINTMENT_STATUSES.filter((from) => canTransition(from, to));
}
