import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setAppQueryClient } from '../lib/app-queries';
import { listenForReturns } from '../lib/fresh-lists';
import { DateFieldsProvider } from './date-fields-provider';

export function createQueryClient() {
  listenForReturns();
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/**
 * What every screen but Login needs around it: TanStack Query and the date fields' settings (with dayjs). They
 * come with those screens (router.tsx), so the login route loads none of them (issue 16).
 */
export function ScreenProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={client}>
      <DateFieldsProvider>{children}</DateFieldsProvider>
    </QueryClientProvider>
  );
}

let appClient: QueryClient | undefined;

/** The one client of the app, made when the first screen that fetches through TanStack Query loads. */
function appQueryClient(): QueryClient {
  if (!appClient) {
    appClient = createQueryClient();
    setAppQueryClient(appClient);
  }
  return appClient;
}

/** ScreenProviders around one screen. All screens share one client, so its cache outlives a change of screen. */
export function ScreenLayer({ children }: { children: ReactNode }) {
  return <ScreenProviders client={appQueryClient()}>{children}</ScreenProviders>;
}
