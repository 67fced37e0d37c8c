import { CURRENCY } from '@vetcall/shared/constants';

/**
 * docs/product-rules.md#api: the purchase analytics event after payment confirms (GA4 `purchase`). Nothing is loaded
 * unless the server configures a measurement id. The CSP forbids inline scripts, so the gtag stub that Google's
 * snippet would inline lives here and only gtag.js itself is fetched (script-src allows its host then).
 */

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

const GTAG_SRC = 'https://www.googletagmanager.com/gtag/js';
const TRACKED_KEY_PREFIX = 'vetcall.purchase_tracked.';

export interface Purchase {
  paymentHash: string;
  /** Cents (docs/product-rules.md#limits). */
  valueCents: number;
  itemName: string;
  isFirstPurchase: boolean;
}

/** Loads gtag.js once and configures the measurement id; answers the gtag function. */
export function ensureGtag(measurementId: string): (...args: unknown[]) => void {
  if (!window.gtag) {
    const dataLayer = (window.dataLayer ??= []);
    // gtag.js reads the `arguments` object itself from the data layer, not an array copy of it.
    window.gtag = function gtag() {
      // eslint-disable-next-line prefer-rest-params
      dataLayer.push(arguments);
    };
    window.gtag('js', new Date());
    // Only the purchase is measured (docs/product-rules.md#api), so no page views are sent.
    window.gtag('config', measurementId, { send_page_view: false });
  }
  if (!document.querySelector(`script[src^="${GTAG_SRC}"]`)) {
    const script = document.createElement('script');
    script.async = true;
    script.src = `${GTAG_SRC}?id=${encodeURIComponent(measurementId)}`;
    document.head.append(script);
  }
  return window.gtag;
}

function alreadyTracked(paymentHash: string): boolean {
  try {
    return window.sessionStorage.getItem(TRACKED_KEY_PREFIX + paymentHash) !== null;
  } catch {
    return false;
  }
}

function markTracked(paymentHash: string): void {
  try {
    window.sessionStorage.setItem(TRACKED_KEY_PREFIX + paymentHash, '1');
  } catch {
    // Storage unavailable: a reload may count the purchase again, which is better than not counting it.
  }
}

/**
 * Sends one `purchase` per payment hash (a reload or Back does not count it twice). Without a measurement
 * id nothing is loaded or sent. Answers whether an event was sent.
 */
export function trackPurchase(measurementId: string | null, purchase: Purchase): boolean {
  if (!measurementId || alreadyTracked(purchase.paymentHash)) return false;
  const gtag = ensureGtag(measurementId);
  const value = purchase.valueCents / 100;
  gtag('event', 'purchase', {
    transaction_id: purchase.paymentHash,
    value,
    currency: CURRENCY,
    // Google Ads' new-customer acquisition reads this; it is what is_first_purchase is for.
    new_customer: purchase.isFirstPurchase,
    items: [{ item_name: purchase.itemName, price: value, quantity: 1 }],
  });
  markTracked(purchase.paymentHash);
  return true;
}
