import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import pt from '@vetcall/shared/i18n/pt.json';
import { LANGUAGE_TAGS } from '@vetcall/shared/locales';
import { authStore } from '../../lib/auth-store';
import { initTestI18n, renderRoutes } from '../../test/render';
import { RequestConfirmedPage } from './request-confirmed-page';
import { loadTestClientConfig } from '../../test/client-config';

async function loadConfig(gaMeasurementId: string | null) {
  await loadTestClientConfig({ ga_measurement_id: gaMeasurementId });
  vi.restoreAllMocks();
}

const COMPLETE_QUERY =
  '/requestconfirmed/?paymentHash=pay_abc123&lang=en&value=3500&item_name=Video+consultation&is_first_purchase=true';

const routes = [
  { path: '/requestconfirmed/', element: <RequestConfirmedPage /> },
  { path: '/', element: <p>login page</p> },
  { path: '/customer', element: <p>booking page</p> },
];

const gtagScripts = () => document.querySelectorAll('script[src^="https://www.googletagmanager.com/gtag/js"]');
/** The gtag commands queued so far, as arrays. */
const gtagCommands = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));

describe('RequestConfirmedPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(() => {
    authStore.setSession('tok', { user_id: 7, type: 'customer', name: 'Ana', email: 'ana@x.test', locale: 'en' });
  });
  afterEach(async () => {
    await i18next.changeLanguage('en');
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
    notifications.cleanQueue();
    window.sessionStorage.clear();
    for (const script of gtagScripts()) script.remove();
    delete window.gtag;
    delete window.dataLayer;
  });

  it('tells a visitor without a session of invalid access and sends them to login', async () => {
    await loadConfig(null);
    authStore.clear();
    const { router } = renderRoutes(routes, COMPLETE_QUERY);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Invalid access. Please log in.')).toBeTruthy();
    expect(screen.getAllByText('Invalid access. Please log in.')).toHaveLength(1);
  });

  it('refuses a vet the same way', async () => {
    await loadConfig(null);
    authStore.setSession('tok', { user_id: 3, type: 'vet', name: 'Dr. Vet', email: 'vet@x.test', locale: 'en' });
    const { router } = renderRoutes(routes, COMPLETE_QUERY);

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Invalid access. Please log in.')).toBeTruthy();
  });

  it('thanks the customer and loads no analytics when no measurement id is configured', async () => {
    await loadConfig(null);
    const { router } = renderRoutes(routes, COMPLETE_QUERY);

    const status = await within(await screen.findByRole('main')).findByRole('status');
    expect(status.textContent).toContain('Thank you for your purchase: Video consultation, €35.00.');
    expect(status.textContent).toContain('Your appointment has been scheduled.');
    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
    expect(window.dataLayer).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer'));
  });

  it('loads gtag.js and sends one purchase event per payment when a measurement id is configured', async () => {
    await loadConfig('G-TEST123');
    const first = renderRoutes(routes, COMPLETE_QUERY);
    await within(await screen.findByRole('main')).findByRole('status');

    const scripts = gtagScripts();
    expect(scripts).toHaveLength(1);
    expect((scripts[0] as HTMLScriptElement).src).toBe('https://www.googletagmanager.com/gtag/js?id=G-TEST123');
    expect(gtagCommands()).toContainEqual(['config', 'G-TEST123', { send_page_view: false }]);
    const purchases = () => gtagCommands().filter(([command, name]) => command === 'event' && name === 'purchase');
    expect(purchases()).toEqual([
      [
        'event',
        'purchase',
        {
          transaction_id: 'pay_abc123',
          value: 35,
          currency: 'EUR',
          new_customer: true,
          items: [{ item_name: 'Video consultation', price: 35, quantity: 1 }],
        },
      ],
    ]);

    // A reload of the same page does not count the purchase twice.
    first.unmount();
    renderRoutes(routes, COMPLETE_QUERY);
    await within(await screen.findByRole('main')).findByRole('status');
    expect(purchases()).toHaveLength(1);
    expect(gtagScripts()).toHaveLength(1);
  });

  it('does not wait for ?lang=pt when pt is already shown (i18next calls it pt-PT)', async () => {
    await loadConfig(null);
    i18next.addResourceBundle(LANGUAGE_TAGS.pt, 'translation', pt);
    await i18next.changeLanguage(LANGUAGE_TAGS.pt);
    renderRoutes(routes, COMPLETE_QUERY.replace('lang=en', 'lang=pt'));

    const status = await within(await screen.findByRole('main')).findByRole('status');
    expect(status.textContent).toContain('Obrigado pela sua compra: Video consultation');
    expect(screen.queryByText(pt.request_confirmed.waiting)).toBeNull();
  });

  it('shows the payment problem when the query is incomplete, and sends nothing', async () => {
    await loadConfig('G-TEST123');
    renderRoutes(routes, '/requestconfirmed/?paymentHash=pay_abc123&lang=en&item_name=Video+consultation');

    const alert = await within(await screen.findByRole('main')).findByRole('alert');
    expect(alert.textContent).toContain('There was a problem validating your payment');
    expect(alert.textContent).toContain('support@vetcall.test');
    expect(gtagScripts()).toHaveLength(0);
  });
});
