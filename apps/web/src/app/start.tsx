import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadClientConfig } from '../lib/client-config';
import { initI18n } from '../lib/i18n';
import { preferredLocale } from '../lib/startup-requests';
import { AppProviders } from './providers';
import { createRouter, loadScreen } from './router';
import { isScreenName } from './screen-modules';

type AppRouter = ReturnType<typeof createRouter>;

/** Resolves once the router has run the loaders of the page's address (the navigation guard). */
function routerReady(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * docs/product-rules.md#product: translations load from the server first; if that fails the app does not mount.
 * A page the server drew (the login and registration screens: `data-prerendered` names the screen) stays as it
 * is until the app can draw the same screen in one go: its code is in and the router has settled, so the
 * drawing is replaced, never by the loading state (docs/decisions/025-public-pages-drawn-on-the-server.md).
 */
export async function start() {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing');
  const router = createRouter();
  const prerendered = root.dataset.prerendered;
  await Promise.all([
    initI18n(preferredLocale()),
    loadClientConfig(),
    prerendered && isScreenName(prerendered) ? loadScreen(prerendered) : undefined,
    prerendered ? routerReady(router) : undefined,
  ]);
  // Where a keyboard user stood in the drawing (they may Tab through it before the app runs) is where they
  // stand in the app's screen: the drawing is replaced in one synchronous commit, the same controls in the
  // same order (the public-pages journey proves it), and focus moves to the control at the same place.
  const focused = prerendered ? focusedPlace(root) : -1;
  const app = createRoot(root);
  flushSync(() =>
    app.render(
      <StrictMode>
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
  delete root.dataset.prerendered;
  if (focused >= 0) root.querySelectorAll<HTMLElement>(FOCUSABLE)[focused]?.focus({ preventScroll: true });
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** The place of the focused element among the focusable ones of `root`; -1 when focus is elsewhere. */
function focusedPlace(root: HTMLElement): number {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return -1;
  return [...root.querySelectorAll(FOCUSABLE)].indexOf(active);
}
