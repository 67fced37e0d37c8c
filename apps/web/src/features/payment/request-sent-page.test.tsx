import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { confirmPaymentSchema, type PaymentLookup, paymentLookupSchema } from '@vetcall/shared/schemas/booking';
import { authStore } from '../../lib/auth-store';
import { type FakeApi, fakeApi, type Refusal, refusal } from '../../test/fake-api';
import { initTestI18n, renderRoutes } from '../../test/render';
import { RequestSentPage } from './request-sent-page';
import { loadTestClientConfig } from '../../test/client-config';

const paid: PaymentLookup = {
  payment_hash: 'pay_abc123',
  status: 'TK_Requested',
  paid: true,
  value: 3500,
  item_name: 'Video consultation',
  is_first_purchase: true,
  schedule: '2030-03-14T10:00:00.000Z',
  vet_name: 'Dr. Vet',
  pet_name: 'Rex',
};
const unpaid: PaymentLookup = { ...paid, status: 'TK_PendingPayment', paid: false };

/** Answers the lookups in turn (the last one repeats); every call is recorded. */
function fakeServer(lookups: (PaymentLookup | Refusal)[]) {
  let served = 0;
  return fakeApi()
    .answer('GET', '/api/appointments/paymenthash/pay_abc123', paymentLookupSchema, () => {
      const answer = lookups[Math.min(served, lookups.length - 1)]!;
      served += 1;
      return answer;
    })
    .answer('PUT', '/api/appointments/confirmpayment/pay_abc123/en', confirmPaymentSchema, { success: true });
}

/** The calls made, as 'METHOD url'. */
const requests = (api: FakeApi) => api.calls.map((call) => `${call.method} ${call.url}`);

const routes = [
  { path: '/requestsent/:payment_hash', element: <RequestSentPage pollIntervalMs={5} pollAttempts={3} /> },
  { path: '/requestconfirmed/', element: <p>request confirmed page</p> },
];

describe('RequestSentPage', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    authStore.setSession('tok', { user_id: 7, type: 'customer', name: 'Ana', email: 'ana@x.test', locale: 'en' });
    // The page logs why a validation failed; the tests check what the person sees instead.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    authStore.clear();
  });

  it('looks the payment up, confirms it in the current language and goes on to Request Confirmed', async () => {
    const api = fakeServer([paid]);
    const { router } = renderRoutes(routes, '/requestsent/pay_abc123');

    expect(screen.getByRole('status').textContent).toContain('Validating your payment');
    expect(await screen.findByText(/Your request has been sent to our specialist/)).toBeTruthy();
    expect(requests(api)).toEqual([
      'GET /api/appointments/paymenthash/pay_abc123',
      'PUT /api/appointments/confirmpayment/pay_abc123/en',
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/requestconfirmed/'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      paymentHash: 'pay_abc123',
      lang: 'en',
      value: '3500',
      item_name: 'Video consultation',
      is_first_purchase: 'true',
    });
  });

  it('asks again while the payment is not marked paid yet (a late webhook)', async () => {
    const api = fakeServer([unpaid, paid]);
    renderRoutes(routes, '/requestsent/pay_abc123');

    expect(await screen.findByText(/Your request has been sent/)).toBeTruthy();
    expect(requests(api).filter((call) => call.startsWith('GET'))).toHaveLength(2);
    expect(requests(api).filter((call) => call.startsWith('PUT'))).toHaveLength(1);
  });

  it('shows the payment problem with the support contact when the payment is unknown', async () => {
    const api = fakeServer([refusal(404, { error: 'invalid_payment_hash', message: 'unknown' })]);
    renderRoutes(routes, '/requestsent/pay_abc123');

    const alert = await within(await screen.findByRole('main')).findByRole('alert');
    expect(alert.textContent).toContain('There was a problem validating your payment');
    expect(alert.textContent).toContain('support@vetcall.test');
    expect(alert.textContent).toContain('pay_abc123');
    expect(requests(api)).toEqual(['GET /api/appointments/paymenthash/pay_abc123']);
  });

  it('gives up after the last look when the payment never becomes paid, and can try again', async () => {
    const api = fakeServer([unpaid]);
    renderRoutes(routes, '/requestsent/pay_abc123');

    expect((await within(await screen.findByRole('main')).findByRole('alert')).textContent).toContain(
      'There was a problem validating your payment',
    );
    expect(requests(api)).toHaveLength(3);
    expect(requests(api).some((call) => call.startsWith('PUT'))).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(requests(api)).toHaveLength(6));
  });

  it('does not confirm a payment that failed or was canceled', async () => {
    const api = fakeServer([{ ...unpaid, status: 'TK_Canceled' }]);
    renderRoutes(routes, '/requestsent/pay_abc123');

    expect((await within(await screen.findByRole('main')).findByRole('alert')).textContent).toContain(
      'There was a problem validating your payment',
    );
    expect(requests(api)).toEqual(['GET /api/appointments/paymenthash/pay_abc123']);
  });
});
