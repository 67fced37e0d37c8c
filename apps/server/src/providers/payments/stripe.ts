import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A thin Stripe client over fetch: the two Checkout Session calls VetCall makes, and the verification of
 * webhook signatures (https://docs.stripe.com/webhooks#verify-manually). Tested against a local HTTP
 * server that speaks these endpoints (test/fake-stripe.ts).
 */

/** The limit on one call to Stripe, body included. */
export const STRIPE_TIMEOUT_MS = 10_000;
/** Stripe's own default: a signed event older (or newer) than this is refused, so a captured one can't be replayed later. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Stripe refuses a Checkout Session `expires_at` sooner than 30 minutes after creation. */
export const STRIPE_MIN_SESSION_MINUTES = 30;

export interface StripeSettings {
  /** Stripe's API origin without a trailing slash (STRIPE_API_URL). */
  apiUrl: string;
  secretKey: string;
  /** Defaults to STRIPE_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
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
  locale: string;
}

/** The fields of a Checkout Session object we read. */
export interface StripeCheckoutSession {
  id: string;
  url: string | null;
  /** 'open' | 'complete' | 'expired' */
  status: string;
  /** 'paid' | 'unpaid' | 'no_payment_required' */
  payment_status: string;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
}

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

  constructor(status: number, message: string, stripeCode?: string) {
    super(`Stripe refused the request (HTTP ${status}): ${message}`);
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
}

type FormValue = string | number | boolean | undefined | FormValue[] | { [key: string]: FormValue };

/**
 * Stripe's form encoding of nested parameters: `line_items[0][price_data][currency]=eur`. Undefined values
 * are left out.
 */
export function encodeStripeForm(params: Record<string, FormValue>): string {
  const pairs: [string, string][] = [];
  const add = (key: string, value: FormValue) => {
    if (value === undefined) return;
    if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
    else if (typeof value === 'object') for (const [name, item] of Object.entries(value)) add(`${key}[${name}]`, item);
    else pairs.push([key, String(value)]);
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return new URLSearchParams(pairs).toString();
}

/** The form of POST /v1/checkout/sessions for one appointment. */
export function checkoutSessionForm(request: CheckoutSessionRequest): string {
  return encodeStripeForm({
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
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Reads the session fields we use out of a Stripe object; throws when it is not a Checkout Session. */
export function parseCheckoutSession(value: unknown): StripeCheckoutSession {
  if (!isRecord(value) || typeof value.id !== 'string' || value.id === '') {
    throw new StripeUnavailable('malformed answer: not a Checkout Session');
  }
  const metadata: Record<string, string> = {};
  if (isRecord(value.metadata)) {
    for (const [key, item] of Object.entries(value.metadata)) if (typeof item === 'string') metadata[key] = item;
  }
  return {
    id: value.id,
    url: stringOrNull(value.url),
    status: stringOrNull(value.status) ?? '',
    payment_status: stringOrNull(value.payment_status) ?? '',
    amount_total: typeof value.amount_total === 'number' ? value.amount_total : null,
    currency: stringOrNull(value.currency),
    client_reference_id: stringOrNull(value.client_reference_id),
    metadata,
  };
}

export function createStripeClient(settings: StripeSettings): StripeClient {
  const timeoutMs = settings.timeoutMs ?? STRIPE_TIMEOUT_MS;

  async function call(method: 'GET' | 'POST', path: string, options: { form?: string; idempotencyKey?: string }) {
    const signal = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${settings.secretKey}`,
    };
    if (options.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${settings.apiUrl}${path}`, {
        method,
        headers,
        body: options.form,
        signal,
        redirect: 'error',
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      throw new StripeUnavailable(signal.aborted ? `no answer within ${timeoutMs} ms` : 'unreachable', {
        cause: error,
      });
    }
    if (status >= 500 || status === 429) throw new StripeUnavailable(`${method} ${path} answered HTTP ${status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw new StripeUnavailable(`${method} ${path} answered HTTP ${status} with a body that is not JSON`, {
        cause: error,
      });
    }
    return { status, body };
  }

  function refused(status: number, body: unknown): StripeRequestRefused {
    const error = isRecord(body) && isRecord(body.error) ? body.error : {};
    return new StripeRequestRefused(
      status,
      typeof error.message === 'string' ? error.message : 'no message',
      typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined,
    );
  }

  return {
    async createCheckoutSession(request, idempotencyKey) {
      const { status, body } = await call('POST', '/v1/checkout/sessions', {
        form: checkoutSessionForm(request),
        idempotencyKey,
      });
      if (status !== 200) throw refused(status, body);
      return parseCheckoutSession(body);
    },
    async retrieveCheckoutSession(id) {
      const { status, body } = await call('GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`, {});
      if (status === 404) return null;
      if (status !== 200) throw refused(status, body);
      return parseCheckoutSession(body);
    },
  };
}

/**
 * Checks a `Stripe-Signature` header (`t=<unix seconds>,v1=<hex>[,v1=<hex>…][,v0=…]`) against the raw
 * body as Stripe signs it: HMAC-SHA256 with the endpoint secret over `${t}.${body}`. Any one v1 may match
 * (Stripe sends several while a secret is being rolled); the timestamp must be within the tolerance of
 * `now` either way. Comparisons take constant time.
 */
export function verifyStripeSignature(
  rawBody: Buffer,
  header: string | undefined,
  secret: string,
  now: Date,
  toleranceSeconds = STRIPE_SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamp = value;
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(Buffer.from(value, 'hex'));
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  // Every candidate is compared, so the time taken does not tell which one (if any) matched.
  let matched = false;
  for (const signature of signatures) if (timingSafeEqual(signature, expected)) matched = true;
  return matched;
}
