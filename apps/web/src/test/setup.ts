import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
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
  setViewportWidth(DESKTOP_WIDTH);
  window.localStorage.clear();
});
