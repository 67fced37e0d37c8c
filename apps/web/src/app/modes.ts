import type { UserType } from '@vetcall/shared/roles';

/** The modes of each access type's page (SPEC §2.4, §2.11, §2.12); the first is the default. */
export const MODES_BY_TYPE: Record<UserType, readonly string[]> = {
  customer: ['appointment_req'],
  vet: ['availabilityconfig', 'availabilityslots', 'customers', 'appointments'],
  manager: [
    'vets',
    'managers',
    'customers',
    'appointments',
    'products',
    'appointments_access_codes',
    'vets_availability',
  ],
};

/** The screen where each access type keeps its own data. */
export const DATA_ROUTE_BY_TYPE: Record<UserType, string> = {
  customer: '/customerdata',
  vet: '/vetdata',
  manager: '/managerdata',
};

export function currentMode(type: UserType, search: URLSearchParams): string {
  const modes = MODES_BY_TYPE[type];
  const requested = search.get('mode');
  return requested && modes.includes(requested) ? requested : modes[0]!;
}
