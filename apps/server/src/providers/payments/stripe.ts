import type Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { packageOnFirstUse } from '../../lib/package-on-first-use.ts';

/** Most deployments use the built-in provider: the SDK is loaded by the first call to Stripe. */
const stripeSdk = packageOnFirstUse<typeof Stripe>('stripe');
/**
 * VetCall's use of Stripe, over the official SDK: Checkout Session create/retrieve/list by payment,
 * refunds, and webhook signature verification. Stripe's errors come out as two of ours: StripeUnavailable
 * (try again later) and StripeRequestRefused (our parameters or key are wrong). Tested against a local
 * HTTP server that speaks these endpoints (test/fake-stripe.ts).
 */

/**
 * The API version every call asks for: 23.1.0's own default. Typed as the SDK's latest version, so an SDK
 * upgrade that moves it fails to compile here until the version is moved on purpose.
 */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';
/** The SDK's idle limit on one call to Stripe (no byte for this long: the call fails), per attempt. */
export const STRIPE_TIMEOUT_MS = 10_000;
/**
 * One more try after a network error, a timeout, a 409 or a 5xx (same idempotency key, after 0.5–1 s): a
 * customer waits for the redirect, so not the SDK's default of two.
 */
export const STRIPE_MAX_NETWORK_RETRIES = 1;
/** Stripe's own default: a signed event older (or newer) than this is refused, so a captured one can't be replayed later. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Stripe refuses a Checkout Session `expires_at` sooner than 30 minutes after creation. */
export const STRIPE_MIN_SESSION_MINUTES = 30;

export interface StripeSettings {
  /** Stripe's API origin without a path (STRIPE_API_URL). */
  apiUrl: string;
  secretKey: string;
  /** Defaults to STRIPE_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
  /** Defaults to STRIPE_MAX_NETWORK_RETRIES. */
  maxNetworkRetries?: number;
}

/** What we ask Stripe for: one line item in EUR, paid once. */
export interface CheckoutSessionRequest {
  amountCents: number;
  itemName: string;
  customerEmail: string;
  /** Our payment_hash: comes back in the webhook as client_reference_id (and metadata.payment_hash). */
  paymentHash: string;
  successUrl: string;
  cancelUrl: string;
  /** Omitted: Stripe's default (24 hours). */
  expiresAt?: Date;
  /** Checkout's interface language ('en', 'pt', 'pt-BR' are Stripe locales). */
  locale: Stripe.Checkout.SessionCreateParams.Locale;
}

/** The fields of a Checkout Session we read; `payment_intent` (once paid) is what a refund names. */
export type StripeCheckoutSession = Pick<
  Stripe.Checkout.Session,
  'id' | 'url' | 'status' | 'payment_status' | 'amount_total' | 'currency' | 'client_reference_id' | 'metadata'
> & { payment_intent: string | null };

export type StripeRefund = Pick<Stripe.Refund, 'id' | 'amount' | 'currency' | 'status'> & {
  payment_intent: string | null;
};

/** Stripe could not be reached or did not answer usefully (network, timeout, 5xx, 429, malformed body). */
export class StripeUnavailable extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(`Stripe: ${message}`, { cause: options.cause });
    this.name = 'StripeUnavailable';
  }
}

/** Stripe refused the request (4xx): our parameters or our key are wrong. */
export class StripeRequestRefused extends Error {
  readonly status: number;
  readonly stripeCode: string | undefined;

  constructor(status: number, message: string, stripeCode?: string, options: { cause?: unknown } = {}) {
    super(`Stripe refused the request (HTTP ${status}): ${message}`, { cause: options.cause });
    this.name = 'StripeRequestRefused';
    this.status = status;
    this.stripeCode = stripeCode;
  }
}

export interface StripeClient {
  /** POST /v1/checkout/sessions; the idempotency key makes a retried call answer the same session. */
  createCheckoutSession(request: CheckoutSessionRequest, idempotencyKey: string): Promise<StripeCheckoutSession>;
  /** GET /v1/checkout/sessions/{id}; null when Stripe does not know the id. */
  retrieveCheckoutSession(id: string): Promise<StripeCheckoutSession | null>;
  /**
   * GET /v1/checkout/sessions?payment_intent=: the Checkout Session that took a payment, as a list (empty
   * when the payment was not made through Checkout). A refund event names only the payment.
   */
  listCheckoutSessionsOfPayment(paymentIntentId: string): Promise<StripeCheckoutSession[]>;
  /** POST /v1/refunds: the whole amount of a payment back to the customer. */
  refundPayment(paymentIntentId: string, idempotencyKey: string): Promise<StripeRefund>;
}

/** The SDK's `host`, `port` and `protocol` from STRIPE_API_URL (the SDK adds /v1/ itself). */
export function stripeEndpoint(apiUrl: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiUrl);
  const protocol = url.protocol.slice(0, -1);
  if ((protocol !== 'http' && protocol !== 'https') || url.pathname !== '/' || url.search !== '') {
    throw new Error(`STRIPE_API_URL must be an http(s) origin without a path: ${apiUrl}`);
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port || (protocol === 'https' ? 443 : 80),
    protocol,
  };
}

const idOf = (value: string | { id: string } | null) => (typeof value === 'string' ? value : (value?.id ?? null));

function checkoutSessionOf(session: Stripe.Checkout.Session): StripeCheckoutSession {
  const { id, url, status, payment_status, amount_total, currency, client_reference_id, metadata } = session;
  return {
    id,
    url,
    status,
    payment_status,
    amount_total,
    currency,
    client_reference_id,
    metadata,
    payment_intent: idOf(session.payment_intent),
  };
}

/** Stripe's errors as ours: an outage or a refusal. */
function translateError(error: unknown, timeoutMs: number): Error {
  if (!(error instanceof stripeSdk().errors.StripeError))
    return error instanceof Error ? error : new Error(String(error));
  if (error instanceof stripeSdk().errors.StripeConnectionError) {
    const timedOut = (error.detail as { code?: unknown } | undefined)?.code === 'ETIMEDOUT';
    return new StripeUnavailable(timedOut ? `no answer within ${timeoutMs} ms` : 'unreachable', { cause: error });
  }
  const status = error.statusCode;
  if (status === undefined || status >= 500 || status === 429) {
    return new StripeUnavailable(`${error.message} (HTTP ${status ?? 'answer unreadable'})`, { cause: error });
  }
  return new StripeRequestRefused(status, error.message || 'no message', error.code ?? error.rawType, {
    cause: error,
  });
}

export function createStripeClient(settings: StripeSettings): StripeClient {
  const timeoutMs = settings.timeoutMs ?? STRIPE_TIMEOUT_MS;
  const stripe = new (stripeSdk())(settings.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: settings.maxNetworkRetries ?? STRIPE_MAX_NETWORK_RETRIES,
    timeout: timeoutMs,
    telemetry: false,
    ...stripeEndpoint(settings.apiUrl),
  });

  async function call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw translateError(error, timeoutMs);
    }
  }

  return {
    async createCheckoutSession(request, idempotencyKey) {
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                price_data: {
                  currency: 'eur',
                  unit_amount: request.amountCents,
                  product_data: { name: request.itemName },
                },
                quantity: 1,
              },
            ],
            customer_email: request.customerEmail,
            client_reference_id: request.paymentHash,
            metadata: { payment_hash: request.paymentHash },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: request.expiresAt ? Math.floor(request.expiresAt.getTime() / 1000) : undefined,
            locale: request.locale,
          },
          { idempotencyKey },
        ),
      );
      return checkoutSessionOf(session);
    },
    async retrieveCheckoutSession(id) {
      try {
        return checkoutSessionOf(await call(() => stripe.checkout.sessions.retrieve(id)));
      } catch (error) {
        if (error instanceof StripeRequestRefused && error.status === 404) return null;
        throw error;
      }
    },
    async listCheckoutSessionsOfPayment(paymentIntentId) {
      // Stripe makes one Checkout Session per PaymentIntent: the first page (10) holds all there are.
      const page = await call(() => stripe.checkout.sessions.list({ payment_intent: paymentIntentId }));
      return page.data.map(checkoutSessionOf);
    },
    async refundPayment(paymentIntentId, idempotencyKey) {
      const refund = await call(() => stripe.refunds.create({ payment_intent: paymentIntentId }, { idempotencyKey }));
      const { id, amount, currency, status } = refund;
      return { id, amount, currency, status, payment_intent: idOf(refund.payment_intent) };
    },
  };
}

/**
 * A webhook's event, once its `Stripe-Signature` header is verified by the SDK on the exact bytes Stripe
 * sent (any one v1 signature may match, as while a secret is rolled). The SDK refuses a timestamp older
 * than the tolerance; one from further in the future is refused here. A body that is signed but not JSON
 * throws a SyntaxError.
 */
export function constructStripeEvent(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  now: Date,
  toleranceSeconds = STRIPE_SIGNATURE_TOLERANCE_SECONDS,
): { verified: false } | { verified: true; event: Stripe.Event } {
  if (!header) return { verified: false };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  // The SDK signs and checks the last t=; none of them may lie ahead.
  const timestamps = [...header.matchAll(/(?:^|,)t=([^,]*)/g)].map((match) => Number(match[1]));
  if (timestamps.some((timestamp) => timestamp - nowSeconds > toleranceSeconds)) return { verified: false };
  try {
    const event = stripeSdk().webhooks.constructEvent(
      rawBody,
      header,
      secret,
      toleranceSeconds,
      undefined,
      now.getTime(),
    );
    return { verified: true, event };
  } catch (error) {
    if (error instanceof stripeSdk().errors.StripeSignatureVerificationError) return { verified: false };
    throw error;
  }
}

/** The Stripe client when PAYMENT_PROVIDER=stripe (with its secret key); null otherwise. */
export function stripeClientFor(payment: Pick<Config['payment'], 'provider' | 'stripeApiUrl' | 'stripeSecretKey'>) {
  if (payment.provider !== 'stripe' || !payment.stripeSecretKey) return null;
  return createStripeClient({ apiUrl: payment.stripeApiUrl, secretKey: payment.stripeSecretKey });
}
