import { afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { type Checkout, type CheckoutPay, checkoutResultSchema, checkoutSchema } from '@vetcall/shared/schemas/booking';
import { authStore } from '../../lib/auth-store';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { CheckoutPage } from './checkout-page';
import { pageExit } from './leave-page';

const checkout: Checkout = {
  payment_hash: 'pay_abc123',
  amount_cents: 3500,
  currency: 'EUR',
  item_name: 'Video consultation',
  schedule: '2030-03-14T10:00:00.000Z',
  vet_name: 'Dr. Vet',
  pet_name: 'Rex',
  status: 'TK_PendingPayment',
  expires_at: '2030-03-01T09:30:00.000Z',
};

/** The built-in checkout's routes: the test cards behave as on the server. */
function fakeCheckoutServer() {
  const bodies: unknown[] = [];
  fakeApi()
    .answer('GET', '/api/payment/checkout/pay_abc123', checkoutSchema, checkout)
    // The page's language travels with the payment: the page after it is in the language being read.
    .answer('POST', '/api/payment/checkout/pay_abc123/pay?lang=en', checkoutResultSchema, ({ body }) => {
      bodies.push(body);
      return (body as CheckoutPay).card_number.replace(/\s/g, '') === '4000000000000002'
        ? refusal(402, { error: 'card_declined', message: 'declined' })
        : { redirect_url: '/requestsent/pay_abc123' };
    })
    .answer('POST', '/api/payment/checkout/pay_abc123/cancel?lang=en', checkoutResultSchema, {
      redirect_url: '/customerdata?lang=en&access=customer&payment_canceled=1',
    });
  return bodies;
}

/** Pastes into a field, as a person filling a card in from a note would (one input event, so it stays fast). */
async function pasteInto(label: RegExp, value: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.paste(value);
}

async function fillCard(cardNumber: string) {
  await pasteInto(/^Card number/, cardNumber);
  await pasteInto(/^Expiry date/, '12/34');
  await pasteInto(/^CVC/, '123');
  await pasteInto(/^Name on card/, 'Ana Silva');
}

const routes = [
  { path: '/checkout/:payment_hash', element: <CheckoutPage /> },
  { path: '/', element: <p>login page</p> },
];

describe('CheckoutPage', () => {
  beforeAll(async () => {
    await initTestI18n();
    await loadTestClientConfig();
  });
  let leavePage: MockInstance<typeof pageExit.leave>;
  beforeEach(() => {
    leavePage = vi.spyOn(pageExit, 'leave').mockImplementation(() => undefined);
    authStore.setSession('tok', { user_id: 7, type: 'customer', name: 'Ana', email: 'ana@x.test', locale: 'en' });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
    notifications.clean();
    notifications.cleanQueue();
  });

  it('shows what is bought, the amount in euros and the test cards', async () => {
    fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');

    expect(await screen.findByText('Video consultation')).toBeTruthy();
    expect(screen.getByText('Dr. Vet')).toBeTruthy();
    expect(screen.getByText('Rex')).toBeTruthy();
    expect(screen.getByText('€35.00')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Pay €35.00' })).toBeTruthy();
    expect(screen.getByText('Card 4242 4242 4242 4242 pays.')).toBeTruthy();
    expect(screen.getByText('Card 4000 0000 0000 0002 is declined.')).toBeTruthy();
  });

  it('warns loudly, only in production, that the built-in checkout moves no money', async () => {
    fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');
    await screen.findByText('Video consultation');
    expect(screen.queryByText('Not a real checkout')).toBeNull();
    cleanup();

    await loadTestClientConfig({ environment: 'production', payment_provider: 'builtin' });
    try {
      fakeCheckoutServer();
      renderRoutes(routes, '/checkout/pay_abc123');
      const banner = (await screen.findByText('Not a real checkout')).closest('[role="note"]');
      expect(banner?.textContent).toContain('no card is charged and no money moves');
    } finally {
      await loadTestClientConfig();
    }
  });

  it('names the product in the language of the page (the server translates what the booking stored)', async () => {
    // The booking stored the customer's Portuguese name; asked with ?lang=en the server answers the English one.
    fakeCheckoutServer();
    fakeApi()
      .answer('GET', '/api/payment/checkout/pay_abc123', checkoutSchema, {
        ...checkout,
        item_name: 'Consulta por vídeo',
      })
      .answer('GET', '/api/payment/checkout/pay_abc123?lang=en', checkoutSchema, checkout);
    renderRoutes(routes, '/checkout/pay_abc123');

    expect(await screen.findByText('Video consultation')).toBeTruthy();
    expect(screen.queryByText('Consulta por vídeo')).toBeNull();
  });

  it('says a declined card on the page and stays', async () => {
    const bodies = fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');
    await screen.findByText('Video consultation');

    await fillCard('4000 0000 0000 0002');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €35.00' }));

    const main = screen.getByRole('main');
    expect((await within(main).findByRole('alert')).textContent).toBe(
      'The card was declined. Please use another card.',
    );
    expect(bodies).toEqual([{ card_number: '4000 0000 0000 0002', expiry: '12/34', cvc: '123', name: 'Ana Silva' }]);
    expect(leavePage).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Pay €35.00' })).toBeTruthy();
  });

  it('goes where the server says after a successful payment', async () => {
    fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');
    await screen.findByText('Video consultation');

    await fillCard('4242 4242 4242 4242');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €35.00' }));

    await waitFor(() => expect(leavePage).toHaveBeenCalledWith('/requestsent/pay_abc123', '/requestsent/pay_abc123'));
  });

  it('checks the card form before sending anything', async () => {
    const bodies = fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');
    await screen.findByText('Video consultation');

    await pasteInto(/^Expiry date/, '13/34');
    await userEvent.click(screen.getByRole('button', { name: 'Pay €35.00' }));

    expect(screen.getAllByText('Invalid format.').length).toBeGreaterThan(0);
    expect(bodies).toEqual([]);
  });

  it('cancels and returns to the booking screen', async () => {
    fakeCheckoutServer();
    renderRoutes(routes, '/checkout/pay_abc123');
    await screen.findByText('Video consultation');

    await userEvent.click(screen.getByRole('button', { name: 'Cancel payment' }));
    await waitFor(() =>
      expect(leavePage).toHaveBeenCalledWith(
        '/customerdata?lang=en&access=customer&payment_canceled=1',
        '/customerdata?lang=en&access=customer&payment_canceled=1',
      ),
    );
  });

  it('needs a customer session', async () => {
    fakeCheckoutServer();
    authStore.clear();
    const { router } = renderRoutes(routes, '/checkout/pay_abc123');

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText('Invalid access. Please log in.')).toBeTruthy();
  });
});
