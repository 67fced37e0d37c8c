import type { AppointmentLifecycle } from '@vetcall/shared/schemas/appointment';

/**
 * An appointment's lifecycle for component tests: nothing happened to it yet and, unless overridden, the
 * reader may do nothing with it (so a test shows only the actions it grants).
 */
export function lifecycleOf(
  overrides: Partial<Omit<AppointmentLifecycle, 'can'>> & { can?: Partial<AppointmentLifecycle['can']> } = {},
): AppointmentLifecycle {
  const { can, ...rest } = overrides;
  return {
    canceled_at: null,
    canceled_by_name: null,
    cancel_reason: null,
    refund_status: null,
    refunded_at: null,
    completed_at: null,
    vet_id: 2,
    profile_id: 4,
    ...rest,
    can: {
      cancel: { allowed: false, reason: 'invalid_transition' },
      reschedule: { allowed: false, reason: 'invalid_transition' },
      complete: { allowed: false, reason: 'forbidden' },
      ...can,
    },
  };
}

/**
 * What every role sees of appointment 12 (Bolinha, Rita Sousa's pet, with Dr. Rui, confirmed): add `viewer`,
 * the role's fields and `lifecycle` to make an AppointmentDto.
 */
export const APPOINTMENT_12 = {
  appointment_id: 12,
  id: 12,
  hash: 'h'.repeat(22),
  schedule: '2026-11-20T10:00:00.000Z',
  duration_minutes: 30,
  customer_user_id: 5,
  customer_name: 'Rita Sousa',
  customerEmail: 'rita@x.test',
  pet_id: 7,
  pet_name: 'Bolinha',
  pet_policy: null,
  vet_user_id: 3,
  vet_name: 'Dr. Rui',
  vetEmail: 'rui@x.test',
  description: 'Itching since Monday',
  appointment_status_key: 'TK_Confirmed',
  appointment_status: 'Confirmed',
  status_date: '2026-11-18T09:00:00.000Z',
  calendar_event_id: null,
  timezone_diff: 0,
  price: 2500,
} as const;
