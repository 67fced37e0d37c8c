import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ROUTES, type RouteName } from '@vetcall/shared/routes';
import { LoginPage } from '../features/auth/login-page';
import { NewPasswordPage } from '../features/auth/new-password-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { CustomerDataPage } from '../features/customers/customer-data-page';
import { CustomerPage } from '../features/customers/customer-page';
import { RegistrationPage } from '../features/customers/registration-page';
import { ManagerPage } from '../features/manager/manager-page';
import { ManagerDataPage } from '../features/staff/manager-data-page';
import { VetDataPage } from '../features/staff/vet-data-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { AuthCallbackPage } from '../features/calendar/auth-callback-page';
import { BuiltinAuthorizePage } from '../features/calendar/builtin-authorize-page';
import { EmbedSchedulerPage } from '../features/scheduler/embed-scheduler-page';
import { VetPage } from '../features/vet/vet-page';
import { CheckoutPage } from '../features/payment/checkout-page';
import { RequestConfirmedPage } from '../features/payment/request-confirmed-page';
import { RequestSentPage } from '../features/payment/request-sent-page';
import { ConfirmAppointmentPage } from '../features/confirmation/confirm-appointment-page';
import { AppointmentPage } from '../features/video/appointment-page';
import { guardedEntry, sessionEntry, trackedEntry } from './navigation-guard';
import { RootLayout } from './root-layout';

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
        handle: { title: route.title, name: route.name },
        element: screenFor(route.name),
      })),
      // Pages beyond the route table of docs/product-rules.md#routes: the embedded scheduler
      // (docs/product-rules.md#api) lives in an iframe.
      { path: '/embed/scheduler', element: <EmbedSchedulerPage /> },
      // The built-in calendar's consent screen (CALENDAR_PROVIDER=builtin), where Aurinko's would be.
      { path: '/calendar/authorize', loader: trackedEntry('CalendarAuthorize'), element: <BuiltinAuthorizePage /> },
      // The built-in hosted checkout (PAYMENT_PROVIDER=builtin), where Stripe's page would be.
      { path: '/checkout/:payment_hash', loader: trackedEntry('Checkout'), element: <CheckoutPage /> },
      { path: '*', loader: trackedEntry('NotFound'), element: <NotFoundPage /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
