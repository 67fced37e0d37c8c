import { StrictMode, startTransition, useLayoutEffect } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadClientConfig } from '../lib/client-config';
import { queriesSettled } from '../lib/app-queries';
import { initI18n } from '../lib/i18n';
import { yieldToMain } from '../lib/yield-to-main';
import { preferredLocale } from '../lib/startup-requests';
import { AppProviders } from './providers';
import { createRouter, loadScreen } from './router';
import { isScreenName } from './screen-modules';

type AppRouter = ReturnType<typeof createRouter>;

/** How long a drawn page waits for its screen's first reads before the app takes its place without them. */
const FIRST_READS_LIMIT_MS = 1000;

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
  // The start chunk was evaluated in the task that called this; the router's first matching (its loaders run at
  // once) and the translations' set-up each take a task of their own (lib/yield-to-main.ts).
  await yieldToMain();
  const router = createRouter();
  await yieldToMain();
  const prerendered = root.dataset.prerendered;
  await Promise.all([
    initI18n(preferredLocale()),
    loadClientConfig(),
    prerendered && isScreenName(prerendered) ? loadScreen(prerendered) : undefined,
    prerendered ? routerReady(router) : undefined,
  ]);
  const app = (
    <StrictMode>
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>
  );
  if (!prerendered) {
    flushSync(() => createRoot(root).render(app));
    return;
  }
  // The drawing stays on the screen while the app draws the same screen into a detached element, in a
  // transition, so React works in slices of a few milliseconds instead of one long task (the page is painted
  // and taking input meanwhile; Lighthouse counted the one task as 400–600 ms of blocking time on a slow
  // phone). Once that is committed, it takes the drawing's place in one step.
  const fresh = document.createElement('div');
  await new Promise<void>((resolve) => {
    startTransition(() =>
      createRoot(fresh).render(
        <>
          {app}
          <OnCommit done={resolve} />
        </>,
      ),
    );
  });
  // The swap in a task of its own, not in the commit's: each is work a phone spends a while on.
  await yieldToMain();
  // The screen's first reads, sent by the entry (lib/startup-requests.ts), have usually arrived by now: the screen
  // takes them in while it is still off the page, so the page changes once, to the screen with its data, rather
  // than to its loading state and then again (each change of a page on view is style and layout work).
  await queriesSettled(FIRST_READS_LIMIT_MS);
  // Where a keyboard user stood in the drawing (they may Tab through it before the app runs) is where they
  // stand in the app's screen: the same controls in the same order (the public-pages journey proves it), and
  // focus moves to the control at the same place.
  const focused = focusedPlace(root);
  fresh.id = 'root';
  root.replaceWith(fresh);
  if (focused >= 0) fresh.querySelectorAll<HTMLElement>(FOCUSABLE)[focused]?.focus({ preventScroll: true });
}

/** Calls `done` when the tree it is in is committed (a layout effect runs in the commit itself). */
function OnCommit({ done }: { done: () => void }) {
  useLayoutEffect(done, [done]);
  return null;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/** The place of the focused element among the focusable ones of `root`; -1 when focus is elsewhere. */
function focusedPlace(root: HTMLElement): number {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return -1;
  return [...root.querySelectorAll(FOCUSABLE)].indexOf(active);
}
