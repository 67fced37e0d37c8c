import { type ComponentType, type ReactNode, use } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { NOT_FOUND_TITLE_KEY, ROUTES, type RouteName } from '@vetcall/shared/routes';
import { LoginPage } from '../features/auth/login-page';
import { guardedEntry, sessionEntry, trackedEntry } from './navigation-guard';
import { RootLayout } from './root-layout';
import { EXTRA_SCREEN_PATHS, loadScreenCode, SCREEN_MODULES, type ScreenName } from './screen-modules';

/**
 * A screen fetched only when its route is first shown (issue 16: the login route must stay small, and each
 * role's screens and the video room come in their own chunks). The root layout's Suspense shows the loading
 * state meanwhile; the route's loader (the navigation guard) and its title are in this module, so both act
 * before any screen code is fetched. The page being loaded has its screen's code requested by the entry
 * already (app/screen-modules.ts), with Mantine's full styles and the providers only screens need.
 */
function lazyScreen<Name extends string>(screen: ScreenName, name: Name) {
  const load = SCREEN_MODULES[screen] as unknown as () => Promise<Record<Name, ComponentType>>;
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const loadScreen = () =>
    (loading ??= loadScreenCode(load).then(([module, { ScreenLayer }]) => {
      const Component: ComponentType = module[name];
      loaded = function ScreenWithItsProviders() {
        return (
          <ScreenLayer>
            <Component />
          </ScreenLayer>
        );
      };
      return loaded;
    }));
  screenLoads.set(screen, loadScreen);
  // Not React.lazy: once its code is in, the screen draws in the same render, so a page the server drew
  // (app/start.tsx) is replaced by the same screen, never by the loading state for a moment.
  return function LazyScreen() {
    const Screen = loaded ?? use(loadScreen());
    return <Screen />;
  };
}

const screenLoads = new Map<ScreenName, () => Promise<unknown>>();

/** Resolves once the code of screen `name` is in: its first render then needs no Suspense. */
export function loadScreen(name: ScreenName): Promise<unknown> {
  return screenLoads.get(name)?.() ?? Promise.resolve();
}

// The login page stays in the first chunk: it is the home, and where the guard sends every refused entry.
const ResetPasswordPage = lazyScreen('ResetPassword', 'ResetPasswordPage');
const NewPasswordPage = lazyScreen('NewPassword', 'NewPasswordPage');
const RegistrationPage = lazyScreen('Registration', 'RegistrationPage');
const CustomerPage = lazyScreen('Customer', 'CustomerPage');
const CustomerDataPage = lazyScreen('CustomerData', 'CustomerDataPage');
const VetPage = lazyScreen('Vet', 'VetPage');
const VetDataPage = lazyScreen('VetData', 'VetDataPage');
const ManagerPage = lazyScreen('Management', 'ManagerPage');
const ManagerDataPage = lazyScreen('ManagerData', 'ManagerDataPage');
const AuthCallbackPage = lazyScreen('AuthCallback', 'AuthCallbackPage');
const BuiltinAuthorizePage = lazyScreen('CalendarAuthorize', 'BuiltinAuthorizePage');
const EmbedSchedulerPage = lazyScreen('EmbedScheduler', 'EmbedSchedulerPage');
const CheckoutPage = lazyScreen('Checkout', 'CheckoutPage');
const RequestSentPage = lazyScreen('Request Sent', 'RequestSentPage');
const RequestConfirmedPage = lazyScreen('Request Confirmed', 'RequestConfirmedPage');
const ConfirmAppointmentPage = lazyScreen('Appointment Confirmation', 'ConfirmAppointmentPage');
const AppointmentPage = lazyScreen('Appointment', 'AppointmentPage');
const NotFoundPage = lazyScreen('NotFound', 'NotFoundPage');

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
      // Pages beyond the route table of docs/product-rules.md#routes (app/screen-modules.ts says what each is).
      { path: EXTRA_SCREEN_PATHS.EmbedScheduler, element: <EmbedSchedulerPage /> },
      {
        path: EXTRA_SCREEN_PATHS.CalendarAuthorize,
        loader: trackedEntry('CalendarAuthorize'),
        element: <BuiltinAuthorizePage />,
      },
      { path: EXTRA_SCREEN_PATHS.Checkout, loader: trackedEntry('Checkout'), element: <CheckoutPage /> },
      {
        path: '*',
        loader: trackedEntry('NotFound'),
        handle: { titleKey: NOT_FOUND_TITLE_KEY },
        element: <NotFoundPage />,
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
