import type { Locale } from '@vetcall/shared/locales';
import type { PaymentLookup } from '@vetcall/shared/schemas/booking';
import { ApiError } from '../../lib/api-client';
import { confirmPayment, fetchPaymentLookup } from './api/payment';

/** Stripe marks a payment paid from its webhook, which can arrive after the browser returns: ask again for ~30 s. */
export const PAYMENT_POLL_INTERVAL_MS = 2000;
export const PAYMENT_POLL_ATTEMPTS = 15;

/** The payment cannot be validated (unknown, failed, canceled, or still unpaid when the wait ran out). */
export class PaymentNotValidatedError extends Error {
  constructor(readonly reason: string) {
    super(`payment not validated: ${reason}`);
  }
}

export interface ValidatePaymentOptions {
  signal: AbortSignal;
  intervalMs?: number;
  attempts?: number;
  /** Called when the payment is not marked paid yet and another look is coming. */
  onPending?: () => void;
}

/** Worth asking again: the payment is not marked paid yet, or the call itself did not get through. */
function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'payment_not_completed' || error.code === 'network_error' || error.status >= 500;
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

/** One look: the confirmed lookup, or 'pending' when the payment is not marked paid yet. */
async function validateOnce(
  paymentHash: string,
  locale: Locale,
  signal: AbortSignal,
): Promise<PaymentLookup | 'pending'> {
  const lookup = await fetchPaymentLookup(paymentHash, signal);
  if (!lookup.paid) {
    if (lookup.status === 'TK_PendingPayment') return 'pending';
    throw new PaymentNotValidatedError(lookup.status);
  }
  await confirmPayment(paymentHash, locale, signal);
  return lookup;
}

/**
 * docs/product-rules.md#states Booking flow, Sent page: the payment hash is looked up, then the payment is confirmed
 * (in the customer's language, for the 'request received' email). Both calls are idempotent, so a restarted run
 * (React's strict double effect, a reload) is harmless. Rejects with PaymentNotValidatedError or the API error.
 */
export async function validatePayment(
  paymentHash: string,
  locale: Locale,
  {
    signal,
    intervalMs = PAYMENT_POLL_INTERVAL_MS,
    attempts = PAYMENT_POLL_ATTEMPTS,
    onPending,
  }: ValidatePaymentOptions,
): Promise<PaymentLookup> {
  let lastReason = 'not_paid';
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      const outcome = await validateOnce(paymentHash, locale, signal);
      if (outcome !== 'pending') return outcome;
      lastReason = 'not_paid';
    } catch (error) {
      if (signal.aborted || !isTransient(error)) throw error;
      lastReason = error instanceof ApiError ? error.code : 'unknown';
    }
    if (attempt < attempts) {
      onPending?.();
      await wait(intervalMs, signal);
    }
  }
  throw new PaymentNotValidatedError(lastReason);
}

/** Request Confirmed's query (docs/product-rules.md#request-confirmed), built from the confirmed lookup. */
export function requestConfirmedPath(lookup: PaymentLookup, locale: Locale): string {
  const query = new URLSearchParams({
    paymentHash: lookup.payment_hash,
    lang: locale,
    value: String(lookup.value),
    item_name: lookup.item_name,
    is_first_purchase: String(lookup.is_first_purchase),
  });
  return `/requestconfirmed/?${query.toString()}`;
}
