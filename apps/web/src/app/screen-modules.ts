import { ROUTES, type RouteName } from '@vetcall/shared/routes';

/**
 * Where each lazily loaded screen's code comes from, in the entry chunk (main.tsx) so that a page's screen starts
 * downloading as soon as the entry runs, beside the start chunk, instead of once the start chunk has arrived and
 * run (issue 16: the registration and customer pages waited one more round trip for their screen). The router
 * (router.tsx) takes its lazy screens from here; only dynamic imports, so nothing here weighs on the entry.
 */
export const SCREEN_MODULES = {
  ResetPassword: () => import('../features/auth/reset-password-page'),
  NewPassword: () => import('../features/auth/new-password-page'),
  Registration: () => import('../features/customers/registration-page'),
  Customer: () => import('../features/customers/customer-page'),
  CustomerData: () => import('../features/customers/customer-data-page'),
  Vet: () => import('../features/vet/vet-page'),
  VetData: () => import('../features/staff/vet-data-page'),
  Management: () => import('../features/manager/manager-page'),
  ManagerData: () => import('../features/staff/manager-data-page'),
  AuthCallback: () => import('../features/calendar/auth-callback-page'),
  CalendarAuthorize: () => import('../features/calendar/builtin-authorize-page'),
  EmbedScheduler: () => import('../features/scheduler/embed-scheduler-page'),
  Checkout: () => import('../features/payment/checkout-page'),
  'Request Sent': () => import('../features/payment/request-sent-page'),
  'Request Confirmed': () => import('../features/payment/request-confirmed-page'),
  'Appointment Confirmation': () => import('../features/confirmation/confirm-appointment-page'),
  Appointment: () => import('../features/video/appointment-page'),
  NotFound: () => import('../features/not-found/not-found-page'),
} satisfies Record<
  Exclude<RouteName, 'Login'> | 'CalendarAuthorize' | 'EmbedScheduler' | 'Checkout' | 'NotFound',
  unknown
>;

export type ScreenName = keyof typeof SCREEN_MODULES;

export function isScreenName(name: string): name is ScreenName {
  return Object.hasOwn(SCREEN_MODULES, name);
}

/** The pages beyond the route table of docs/product-rules.md#routes, and their paths. */
export const EXTRA_SCREEN_PATHS = {
  // The embedded scheduler (docs/product-rules.md#api) lives in an iframe.
  EmbedScheduler: '/embed/scheduler',
  // The built-in calendar's consent screen (CALENDAR_PROVIDER=builtin), where Aurinko's would be.
  CalendarAuthorize: '/calendar/authorize',
  // The built-in hosted checkout (PAYMENT_PROVIDER=builtin), where Stripe's page would be.
  Checkout: '/checkout/:payment_hash',
} as const satisfies Partial<Record<ScreenName, string>>;

/**
 * A screen's code with what every screen but Login needs beside it: Mantine's full styles and the providers only
 * screens use (TanStack Query, date fields: app/screen-providers.tsx).
 */
export function loadScreenCode<Module>(load: () => Promise<Module>) {
  return Promise.all([load(), import('./screen-providers'), import('./all-styles')] as const);
}

/** A route path of React Router's kind (`:param`, `:param?`) as an expression matching whole pathnames. */
function pathExpression(path: string): RegExp {
  const source = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  // As React Router matches: any case, and a trailing slash allowed.
  return new RegExp(`^${source}/?$`, 'i');
}

const SCREEN_PATHS: ReadonlyArray<[RegExp, ScreenName | 'Login']> = [
  ...ROUTES.map((route): [RegExp, ScreenName | 'Login'] => [pathExpression(route.path), route.name]),
  ...Object.entries(EXTRA_SCREEN_PATHS).map(([name, path]): [RegExp, ScreenName] => [
    pathExpression(path),
    name as ScreenName,
  ]),
];

/** The screen shown at `pathname`: Login is in the start chunk, any unknown path shows NotFound. */
export function screenAt(pathname: string): ScreenName | 'Login' {
  return SCREEN_PATHS.find(([expression]) => expression.test(pathname))?.[1] ?? 'NotFound';
}

/** Starts fetching the code of the screen at `pathname` (the page being loaded), if it is a lazy one. */
export function preloadScreenAt(pathname: string): void {
  const name = screenAt(pathname);
  if (name === 'Login') return;
  const load: () => Promise<unknown> = SCREEN_MODULES[name];
  loadScreenCode(load).catch(() => undefined);
}
