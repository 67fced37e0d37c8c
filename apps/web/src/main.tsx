import './app/first-screen-styles';
import './styles.css';
import { preloadScreenAt } from './app/screen-modules';
import { startScreenReads, startStartupRequests } from './lib/startup-requests';

// The translations and the client configuration are requested first, while the app's code downloads
// (lib/startup-requests.ts); the app starts when all three have arrived.
startStartupRequests();
startScreenReads();
// The page's own screen downloads beside the start chunk (app/screen-modules.ts).
preloadScreenAt(window.location.pathname);
import('./app/start')
  .then(({ start }) => start())
  .catch((error: unknown) => {
    console.error('VetCall could not start', error);
    document.getElementById('startup-failure')?.removeAttribute('hidden');
  });
