import type { Purchase } from './purchase-analytics';

/** Cents are a non-negative integer; anything else is an incomplete query. */
const CENTS_PATTERN = /^\d{1,9}$/;

/**
 * Request Confirmed's query (docs/product-rules.md#request-confirmed): paymentHash, value (cents), item_name and
 * is_first_purchase; `lang` is handled by the root layout. Undefined when a required part is missing or malformed,
 * which the page shows as the payment problem.
 */
export function parseConfirmedQuery(search: URLSearchParams): Purchase | undefined {
  const paymentHash = search.get('paymentHash')?.trim() ?? '';
  const value = search.get('value')?.trim() ?? '';
  const itemName = search.get('item_name')?.trim() ?? '';
  if (!paymentHash || !itemName || !CENTS_PATTERN.test(value)) return undefined;
  return {
    paymentHash,
    valueCents: Number(value),
    itemName,
    isFirstPurchase: search.get('is_first_purchase') === 'true',
  };
}
