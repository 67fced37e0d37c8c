import { afterAll, afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { authStore } from '../lib/auth-store';
import { DESKTOP_WIDTH, matchesWidthQuery, setViewportWidth } from './viewport';

// Mantine reads these browser APIs, which jsdom does not implement. Width queries answer for the width
// test/viewport.ts sets (a desktop's unless a test picks a phone's).
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string) => ({
    matches: matchesWidthQuery(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }),
});
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= () => {};
// Mantine's autosizing Textarea listens for web fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
}

afterEach(() => {
  cleanup();
  // Mantine's notifications live in a store of their own, outside any rendered tree.
  notifications.clean();
  notifications.cleanQueue();
  setViewportWidth(DESKTOP_WIDTH);
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// The test files of a worker share its modules and its document (vitest.config.ts: isolate is off, as loading
// the app's modules and a new document for each file cost more than the tests). What a file may have changed
// of them is put back before the next file: the session, the language, timers, spies, globals, the title and
// the address.
afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  authStore.clear();
  if (i18next.isInitialized) await i18next.changeLanguage('en');
  document.title = '';
  window.history.replaceState(null, '', '/');
});
