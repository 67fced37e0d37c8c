import { MODES_BY_TYPE } from '@vetcall/shared/modes';
import type { UserType } from '@vetcall/shared/roles';
import { clientConfig } from '../lib/client-config';

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
