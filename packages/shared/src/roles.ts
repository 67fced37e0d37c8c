/**
 * Access types of docs/product-rules.md#product. `newCustomer` is the client-side state before anyone logs in
 * (docs/product-rules.md#states).
 */
export const USER_TYPES = ['customer', 'vet', 'manager'] as const;
export type UserType = (typeof USER_TYPES)[number];

/** The route each access type lands on after login (docs/product-rules.md#login-and-account). */
export const HOME_ROUTE_BY_TYPE: Record<UserType, string> = {
  customer: '/customer',
  vet: '/vet',
  manager: '/manager',
};
