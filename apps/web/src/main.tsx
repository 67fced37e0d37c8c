import './app/first-screen-styles';
import './styles.css';
import { preloadScreenAt } from './app/screen-modules';
import { startScreenReads, startStartupRequests } from './lib/startup-requests';

/**
 * Resolves once the browser has painted the page as the server sent it (a task queued from an animation frame
 * runs after that frame's paint), or after `limitMs` in a tab that paints no frames (a hidden one).
 */
function afterFirstPaint(limitMs = 250): Promise<void> {
  return new Promise((resolve) => {
    const limit = setTimeout(resolve, limitMs);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(limit);
        resolve();
      }, 0),
    );
  });
}

// The translations and the client configuration are requested first, while the app's code downloads
// (lib/startup-requests.ts); the app starts when all three have arrived.
startStartupRequests();
startScreenReads();
// A page the server drew (docs/decisions/025-public-pages-drawn-on-the-server.md) is painted before the app's code
// is fetched and run: on a slow link that code (some 250 KB) would share the bandwidth with the page's styles, and
// compiling and running it (some 300 ms on a slow phone) would come before the first paint. Any other page has
// nothing to show before the app: its screen downloads beside the start chunk (app/screen-modules.ts) at once.
const drawn = Boolean(document.getElementById('root')?.dataset.prerendered);
(drawn ? afterFirstPaint() : Promise.resolve())
  .then(() => {
    preloadScreenAt(window.location.pathname);
    return import('./app/start');
  })
  .then(({ start }) => start())
  .catch((error: unknown) => {
    console.error('VetCall could not start', error);
    document.getElementById('startup-failure')?.removeAttribute('hidden');
  });
