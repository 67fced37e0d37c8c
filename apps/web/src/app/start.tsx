import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadClientConfig } from '../lib/client-config';
import { initI18n } from '../lib/i18n';
import { preferredLocale } from '../lib/startup-requests';
import { AppProviders } from './providers';
import { createRouter } from './router';

/** docs/product-rules.md#product: translations load from the server first; if that fails the app does not mount. */
export async function start() {
  await Promise.all([initI18n(preferredLocale()), loadClientConfig()]);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  createRoot(root).render(
    <StrictMode>
      <AppProviders>
        <RouterProvider router={createRouter()} />
      </AppProviders>
    </StrictMode>,
  );
}
