import { type ComponentType, isValidElement, lazy, type ReactNode } from 'react';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { NOT_FOUND_TITLE_KEY, ROUTES, type RouteName } from '@vetcall/shared/routes';
import { LoginPage } from '../features/auth/login-page';
import { guardedEntry, sessionEntry, trackedEntry } from './navigation-guard';
import { RootLayout } from './root-layout';

/**
 * A screen fetched only when its route is first shown (issue 16: the login route must stay small, and each
 * role's screens and the video room come in their own chunks). The root layout's Suspense shows the loading
 * state meanwhile; the route's loader (the navigation guard) and its title are in this module, so both act
 * before any screen code is fetched. Mantine's full styles and the providers only screens need (TanStack Query, date fields:
 * app/screen-providers.tsx) come with the first such screen.
 */
function lazyScreen<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  const loadWithStyles = () => Promise.all([load(), import('./screen-providers'), import('./all-styles')] as const);
  const Screen = lazy(async () => {
    const [screen, { ScreenLayer }] = await loadWithStyles();
    const Component: ComponentType = screen[name];
    return {
      default: function ScreenWithItsProviders() {
        return (
          <ScreenLayer>
            <Component />
          </ScreenLayer>
        );
      },
    };
  });
  screenLoaders.set(Screen, loadWithStyles);
  return Screen;
}

/** How to fetch each lazy screen's code ahead of its first render (preloadScreenFor). */
const screenLoaders = new Map<unknown, () => Promise<unknown>>();

// The login page stays in the first chunk: it is the home, and where the guard sends every refused entry.
const ResetPasswordPage = lazyScreen(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage');
const NewPasswordPage = lazyScreen(() => import('../features/auth/new-password-page'), 'NewPasswordPage');
const RegistrationPage = lazyScreen(() => import('../features/customers/registration-page'), 'RegistrationPage');
const CustomerPage = lazyScreen(() => import('../features/customers/customer-page'), 'CustomerPage');
const CustomerDataPage = lazyScreen(() => import('../features/customers/customer-data-page'), 'CustomerDataPage');
const VetPage = lazyScreen(() => import('../features/vet/vet-page'), 'VetPage');
const VetDataPage = lazyScreen(() => import('../features/staff/vet-data-page'), 'VetDataPage');
const ManagerPage = lazyScreen(() => import('../features/manager/manager-page'), 'ManagerPage');
const ManagerDataPage = lazyScreen(() => import('../features/staff/manager-data-page'), 'ManagerDataPage');
const AuthCallbackPage = lazyScreen(() => import('../features/calendar/auth-callback-page'), 'AuthCallbackPage');
const BuiltinAuthorizePage = lazyScreen(
  () => import('../features/calendar/builtin-authorize-page'),
  'BuiltinAuthorizePage',
);
const EmbedSchedulerPage = lazyScreen(() => import('../features/scheduler/embed-scheduler-page'), 'EmbedSchedulerPage');
const CheckoutPage = lazyScreen(() => import('../features/payment/checkout-page'), 'CheckoutPage');
const RequestSentPage = lazyScreen(() => import('../features/payment/request-sent-page'), 'RequestSentPage');
const RequestConfirmedPage = lazyScreen(
  () => import('../features/payment/request-confirmed-page'),
  'RequestConfirmedPage',
);
const ConfirmAppointmentPage = lazyScreen(
  () => import('../features/confirmation/confirm-appointment-page'),
  'ConfirmAppointmentPage',
);
const AppointmentPage = lazyScreen(() => import('../features/video/appointment-page'), 'AppointmentPage');
const NotFoundPage = lazyScreen(() => import('../features/not-found/not-found-page'), 'NotFoundPage');

const OWN_DATA_ROUTES = new Set<RouteName>(['CustomerData', 'VetData', 'ManagerData']);

/** The screen of each route of docs/product-rules.md#routes. */
function screenFor(name: RouteName): ReactNode {
  switch (name) {
    case 'Login':
      return <LoginPage />;
    case 'ResetPassword':
      return <ResetPasswordPage />;
    case 'NewPassword':
      return <NewPasswordPage />;
    case 'Customer':
      return <CustomerPage />;
    case 'Vet':
      return <VetPage />;
    case 'Management':
      return <ManagerPage />;
    case 'Registration':
      return <RegistrationPage />;
    case 'CustomerData':
      return <CustomerDataPage />;
    case 'VetData':
      return <VetDataPage />;
    case 'ManagerData':
      return <ManagerDataPage />;
    case 'AuthCallback':
      return <AuthCallbackPage />;
    case 'Request Sent':
      return <RequestSentPage />;
    case 'Request Confirmed':
      return <RequestConfirmedPage />;
    case 'Appointment Confirmation':
      return <ConfirmAppointmentPage />;
    case 'Appointment':
      return <AppointmentPage />;
  }
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      ...ROUTES.map((route): RouteObject => ({
        path: route.path,
        loader: OWN_DATA_ROUTES.has(route.name)
          ? sessionEntry(route.name)
          : guardedEntry(route.name, route.path, 'requiresAuth' in route && route.requiresAuth),
        handle: { titleKey: route.titleKey, name: route.name },
        element: screenFor(route.name),
      })),
      // Pages beyond the route table of docs/product-rules.md#routes: the embedded scheduler
      // (docs/product-rules.md#api) lives in an iframe.
      { path: '/embed/scheduler', element: <EmbedSchedulerPage /> },
      // The built-in calendar's consent screen (CALENDAR_PROVIDER=builtin), where Aurinko's would be.
      { path: '/calendar/authorize', loader: trackedEntry('CalendarAuthorize'), element: <BuiltinAuthorizePage /> },
      // The built-in hosted checkout (PAYMENT_PROVIDER=builtin), where Stripe's page would be.
      { path: '/checkout/:payment_hash', loader: trackedEntry('Checkout'), element: <CheckoutPage /> },
      {
        path: '*',
        loader: trackedEntry('NotFound'),
        handle: { titleKey: NOT_FOUND_TITLE_KEY },
        element: <NotFoundPage />,
      },
    ],
  },
];

/**
 * Starts fetching the code of the screen at `pathname` while the app waits for its translations (app/start.tsx),
 * so a page loaded on a lazy screen (a reload of /customer) does not fetch it only after the first render.
 */
export function preloadScreenFor(pathname: string): void {
  const element = matchRoutes(routes, pathname)?.at(-1)?.route.element;
  if (isValidElement(element)) void screenLoaders.get(element.type)?.();
}

export function createRouter() {
  return createBrowserRouter(routes);
}
