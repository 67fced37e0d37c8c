/** Access types of SPEC §1. `newCustomer` is the client-side state before anyone logs in (SPEC §4). */
export const USER_TYPES = ['customer', 'vet', 'manager'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The route each access type lands on after login (SPEC §2.3). */
export const HOME_ROUTE_BY_TYPE: Record<UserType, string> = {
  customer: '/customer',
  vet: '/vet',
  manager: '/manager',
};
