import type { UserType } from './roles.ts';

/**
 * The modes of each access type's page (docs/product-rules.md#booking, #vet-screens, #manager-screens); the
 * first is the default. The customer's `appointments` (their own appointments) and the manager's
 * `undelivered_mail` (mail the server gave up on) and `audit` (the audit log, docs/audit-log.md) are ours.
 */
export const MODES_BY_TYPE: Record<UserType, readonly string[]> = {
  customer: ['appointment_req', 'appointments'],
  vet: ['availabilityconfig', 'availabilityslots', 'customers', 'appointments'],
  manager: [
    'vets',
    'managers',
    'customers',
    'appointments',
    'products',
    'appointments_access_codes',
    'vets_availability',
    'undelivered_mail',
    'audit',
  ],
};
