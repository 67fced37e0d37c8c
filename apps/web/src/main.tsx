import './app/first-screen-styles';
import './styles.css';
import { startStartupRequests } from './lib/startup-requests';

// The translations and the client configuration are requested first, while the app's code downloads
// (lib/startup-requests.ts); the app starts when all three have arrived.
startStartupRequests();
import('./app/start')
  .then(({ start }) => start())
  .catch((error: unknown) => {
    console.error('VetCall could not start', error);
    document.getElementById('startup-failure')?.removeAttribute('hidden');
  });
