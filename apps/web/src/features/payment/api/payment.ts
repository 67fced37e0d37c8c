import type { Locale } from '@vetcall/shared/locales';
import type { Checkout, CheckoutPay, PaymentLookup } from '@vetcall/shared/schemas/booking';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/appointments/paymenthash/{payment_hash} (the owning customer): what Request Sent needs. */
export function fetchPaymentLookup(paymentHash: string, signal?: AbortSignal) {
  return apiRequest<PaymentLookup>(`/api/appointments/paymenthash/${encodeURIComponent(paymentHash)}`, { signal });
}

/** PUT /api/appointments/confirmpayment/{payment_hash}/{language}: idempotent; refuses an unpaid payment (409). */
export function confirmPayment(paymentHash: string, locale: Locale, signal?: AbortSignal) {
  return apiRequest<{ success: true }>(
    `/api/appointments/confirmpayment/${encodeURIComponent(paymentHash)}/${locale}`,
    { method: 'PUT', signal },
  );
}

const checkoutPath = (paymentHash: string) => `/api/payment/checkout/${encodeURIComponent(paymentHash)}`;

/** GET /api/payment/checkout/{payment_hash}: what the built-in checkout shows, the product named in `locale`. */
export function fetchCheckout(paymentHash: string, locale: Locale, signal?: AbortSignal) {
  return apiRequest<Checkout>(`${checkoutPath(paymentHash)}?lang=${locale}`, { signal });
}

/**
 * POST …/pay with the test card: where the browser goes next (in the language being read, not the account's
 * stored one), or 402 card_declined.
 */
export function payCheckout(paymentHash: string, card: CheckoutPay, locale: Locale) {
  return apiRequest<{ redirect_url: string }>(`${checkoutPath(paymentHash)}/pay?lang=${locale}`, {
    method: 'POST',
    body: card,
  });
}

/** POST …/cancel: releases the slot; answers where the browser goes (the booking screen, in `locale`). */
export function cancelCheckout(paymentHash: string, locale: Locale) {
  return apiRequest<{ redirect_url: string }>(`${checkoutPath(paymentHash)}/cancel?lang=${locale}`, {
    method: 'POST',
  });
}
