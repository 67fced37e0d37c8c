import type { UserType } from '@vetcall/shared/roles';
import { clientConfig } from '../lib/client-config';

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

/** The screen where each access type keeps its own data. */
export const DATA_ROUTE_BY_TYPE: Record<UserType, string> = {
  customer: '/customerdata',
  vet: '/vetdata',
  manager: '/managerdata',
};

/** The modes offered in the navbar: access codes only when they are in use (docs/product-rules.md#manager-screens). */
export function visibleModes(type: UserType): readonly string[] {
  const enabled = clientConfig().access_codes_enabled;
  return MODES_BY_TYPE[type].filter((mode) => enabled || mode !== 'appointments_access_codes');
}

export function currentMode(type: UserType, search: URLSearchParams): string {
  const modes = visibleModes(type);
  const requested = search.get('mode');
  return requested && modes.includes(requested) ? requested : modes[0]!;
}
