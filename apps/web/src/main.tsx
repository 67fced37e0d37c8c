import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app/providers';
import { createRouter } from './app/router';
import { loadClientConfig } from './lib/client-config';
import { initI18n, preferredLocale } from './lib/i18n';

/** docs/product-rules.md#product: translations load from the server first; if that fails the app does not mount. */
async function start() {
  await Promise.all([initI18n(preferredLocale()), loadClientConfig()]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={createQueryClient()}>
        <RouterProvider router={createRouter()} />
      </AppProviders>
    </StrictMode>,
  );
}

start().catch((error: unknown) => {
  console.error('VetCall could not start', error);
  document.getElementById('startup-failure')?.removeAttribute('hidden');
});
