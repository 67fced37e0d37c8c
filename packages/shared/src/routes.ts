/**
 * The route table of docs/product-rules.md#routes. Paths, names and page titles are part of the contract and are kept
 * exactly; the web router is built from this list. `title` is the English title; the document shows `titleKey`'s
 * message in the reader's language, whose English text is `title` (docs/decisions/013-page-titles-follow-the-language.md).
 */
export const ROUTES = [
  { name: 'Login', path: '/', title: 'Login', titleKey: 'page_titles.login' },
  {
    name: 'Registration',
    path: '/registration',
    title: 'New Customer Registration',
    titleKey: 'page_titles.registration',
  },
  { name: 'ResetPassword', path: '/resetpassword', title: 'Reset Password', titleKey: 'page_titles.reset_password' },
  { name: 'NewPassword', path: '/newpassword', title: 'Set New Password', titleKey: 'page_titles.new_password' },
  {
    name: 'Customer',
    path: '/customer',
    title: 'Customer Mode - Schedule Appointment',
    titleKey: 'page_titles.customer',
    requiresAuth: true,
  },
  { name: 'CustomerData', path: '/customerdata', title: 'Customer Data', titleKey: 'page_titles.customer_data' },
  { name: 'VetData', path: '/vetdata', title: 'Vet Data', titleKey: 'page_titles.vet_data' },
  { name: 'ManagerData', path: '/managerdata', title: 'Manager Data', titleKey: 'page_titles.manager_data' },
  { name: 'AuthCallback', path: '/auth/callback', title: 'Auth CallBack', titleKey: 'page_titles.auth_callback' },
  { name: 'Appointment', path: '/appointment/:pin?', title: 'Appointment', titleKey: 'page_titles.appointment' },
  {
    name: 'Request Sent',
    path: '/requestsent/:payment_hash',
    title: 'Appointment Request Sent',
    titleKey: 'page_titles.request_sent',
  },
  {
    name: 'Request Confirmed',
    path: '/requestconfirmed/',
    title: 'Appointment Request Confirmed',
    titleKey: 'page_titles.request_confirmed',
  },
  {
    name: 'Appointment Confirmation',
    path: '/confirmappointment/:hash',
    title: 'Appointment Confirmation',
    titleKey: 'page_titles.appointment_confirmation',
  },
  {
    name: 'Management',
    path: '/manager',
    title: 'Manager Mode',
    titleKey: 'page_titles.management',
    requiresAuth: true,
  },
  { name: 'Vet', path: '/vet', title: 'Vet Mode', titleKey: 'page_titles.vet', requiresAuth: true },
] as const satisfies readonly { name: string; path: string; title: string; titleKey: string; requiresAuth?: boolean }[];

export type RouteName = (typeof ROUTES)[number]['name'];

/** Title used where a route has none (docs/product-rules.md#routes): the product's name, the same in every language. */
export const DEFAULT_PAGE_TITLE = 'VetCall';

/** The not-found page's title (beyond the route table). */
export const NOT_FOUND_TITLE_KEY = 'page_titles.not_found';

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
