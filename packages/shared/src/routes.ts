/**
 * The route table of docs/product-rules.md#routes. Paths, names and page titles are part of the contract and are kept
 * exactly; the web router is built from this list.
 */
export const ROUTES = [
  { name: 'Login', path: '/', title: 'Login' },
  { name: 'Registration', path: '/registration', title: 'New Customer Registration' },
  { name: 'ResetPassword', path: '/resetpassword', title: 'Reset Password' },
  { name: 'NewPassword', path: '/newpassword', title: 'Set New Password' },
  { name: 'Customer', path: '/customer', title: 'Customer Mode - Schedule Appointment', requiresAuth: true },
  { name: 'CustomerData', path: '/customerdata', title: 'Customer Data' },
  { name: 'VetData', path: '/vetdata', title: 'Vet Data' },
  { name: 'ManagerData', path: '/managerdata', title: 'Manager Data' },
  { name: 'AuthCallback', path: '/auth/callback', title: 'Auth CallBack' },
  { name: 'Appointment', path: '/appointment/:pin?', title: 'Appointment' },
  { name: 'Request Sent', path: '/requestsent/:payment_hash', title: 'Appointment Request Sent' },
  { name: 'Request Confirmed', path: '/requestconfirmed/', title: 'Appointment Request Confirmed' },
  { name: 'Appointment Confirmation', path: '/confirmappointment/:hash', title: 'Appointment Confirmation' },
  { name: 'Management', path: '/manager', title: 'Manager Mode', requiresAuth: true },
  { name: 'Vet', path: '/vet', title: 'Vet Mode', requiresAuth: true },
] as const satisfies readonly { name: string; path: string; title: string; requiresAuth?: boolean }[];

export type RouteName = (typeof ROUTES)[number]['name'];

/** Title used where a route has none (docs/product-rules.md#routes). */
export const DEFAULT_PAGE_TITLE = 'VetCall';

/**
 * Screens from which an auth-required route may be entered without clearing the session
 * (docs/product-rules.md#navigation-guard).
 */
export const GUARD_ALLOWED_ORIGINS: readonly RouteName[] = [
  'Login',
  'CustomerData',
  'Request Confirmed',
  'VetData',
  'ManagerData',
];
