import { type ReactNode, Suspense, lazy, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { useModalsHostRequested } from '../lib/modals-host';
import { cssVariablesResolver, theme } from './theme';

/** The toasts' container and its transitions, fetched with the first toast (issue 16: not with the login page). */
const Notifications = lazy(async () => {
  const [{ Notifications: Container }] = await Promise.all([import('@mantine/notifications'), import('./all-styles')]);
  return { default: Container };
});

/**
 * Mounts the toasts' container once a toast is shown. Toasts go to Mantine's store (lib/notify.ts), which the
 * container reads when it mounts, so the first toast waits only for the container's code.
 */
function NotificationsWhenShown() {
  const { notifications, queue } = useNotifications();
  const [shown, setShown] = useState(false);
  if (!shown && notifications.length + queue.length > 0) setShown(true);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <Notifications position="top-right" limit={4} />
    </Suspense>
  );
}

const ModalsHost = lazy(async () => ({ default: (await import('./modals-host')).ModalsHost }));

/** Mounts the dialog host once a confirmation is first asked for (lib/modals-host.ts). */
function ModalsHostWhenAsked() {
  const asked = useModalsHostRequested();
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <ModalsHost />
    </Suspense>
  );
}

/**
 * The providers of the whole app. TanStack Query's and the date fields' come with each screen but Login
 * (app/screen-providers.tsx).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <ModalsHostWhenAsked />
      <NotificationsWhenShown />
      {children}
    </MantineProvider>
  );
}
