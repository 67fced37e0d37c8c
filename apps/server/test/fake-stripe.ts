import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../src/clock.ts';
import { STRIPE_API_VERSION } from '../src/providers/payments/stripe.ts';
import { startFakeHttpServer } from './fake-http-server.ts';

/**
 * A local HTTP server that speaks the part of Stripe's API VetCall uses, as the official SDK calls it:
 * POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id}, GET /v1/checkout/sessions (the list, by
 * payment_intent) and POST /v1/refunds (form-encoded with bracketed nested keys, Bearer secret key,
 * Stripe-Version, Idempotency-Key). It checks what Stripe checks for these calls (authentication, a
 * well-formed API version, required fields, amounts, expires_at within 30 minutes to 24 hours of its clock,
 * the same parameters for a reused idempotency key, no more refunded than was paid, list parameters it
 * knows) and answers Stripe's shapes, success and error alike, with the headers the SDK reads. Its Charges
 * (one per paid session) are what charge.refunded events carry.
 */

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  mode: string;
  amount_total: number;
  currency: string;
  customer_email: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  locale: string | null;
  /** Set when the session is paid (setSession with payment_status 'paid' makes one up). */
  payment_intent: string | null;
  created: number;
  livemode: false;
  line_items_name: string;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  created: number;
  metadata: Record<string, string>;
}

/** The Charge of a paid session's PaymentIntent, its refunds added up. */
export interface FakeCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  currency: string;
  payment_intent: string;
  paid: true;
  /** True once the whole amount is refunded. */
  refunded: boolean;
  status: 'succeeded';
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

export interface RecordedStripeCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body as Stripe reads it (bracketed keys as sent). */
  form: Record<string, string>;
  /** The query string's parameters (a GET's). */
  query: Record<string, string>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Stripe's answers carry a request id and the API version they were made for. */
function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(7).toString('hex')}`,
    'stripe-version': STRIPE_API_VERSION,
    ...headers,
  });
  response.end(JSON.stringify(body));
}

/** Stripe's error body; `code` says which refusal it is (resource_missing, charge_already_refunded, …). */
function errorBody(message: string, extra: { type?: string; param?: string; code?: string } = {}) {
  return { error: { type: 'invalid_request_error', message, ...extra } };
}

function stripeError(response: ServerResponse, status: number, ...error: Parameters<typeof errorBody>) {
  send(response, status, errorBody(...error));
}

/** What one POST answered (200), kept under its Idempotency-Key. */
interface IdempotentAnswer {
  path: string;
  body: string;
  answer: unknown;
}

export async function startFakeStripe(options: { secretKey: string; clock: Clock }) {
  const sessions = new Map<string, FakeCheckoutSession>();
  const refunds = new Map<string, FakeRefund>();
  const idempotent = new Map<string, IdempotentAnswer>();
  const calls: RecordedStripeCall[] = [];
  /** While set, calls answer this HTTP status with a Stripe error body, `remaining` times. */
  const failures = { status: 0, remaining: 0 };

  const server = await startFakeHttpServer();
  const baseUrl = server.baseUrl;
  const nowSeconds = () => Math.floor(options.clock.now().getTime() / 1000);

  /** A POST's answer: a replay of the first one under its Idempotency-Key, else `create` (then kept). */
  function answerPost(
    request: IncomingMessage,
    response: ServerResponse,
    path: string,
    body: string,
    create: () => { status: number; answer: unknown },
  ) {
    const key = request.headers['idempotency-key'];
    const earlier = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (earlier && (earlier.path !== path || earlier.body !== body)) {
      return stripeError(
        response,
        400,
        'Keys for idempotent requests can only be used with the same parameters they were first used with.',
        { type: 'idempotency_error' },
      );
    }
    if (earlier) return send(response, 200, earlier.answer, { 'idempotent-replayed': 'true' });
    const { status, answer } = create();
    // As Stripe: a request refused by validation saves no result under its key.
    if (typeof key === 'string' && status === 200) idempotent.set(key, { path, body, answer });
    return send(response, status, answer);
  }

  function createSession(form: Record<string, string>) {
    const problem = checkSessionForm(form, options.clock.now());
    if (problem) return { status: 400, answer: errorBody(problem.message, { param: problem.param }) };
    const id = `cs_test_${randomBytes(12).toString('hex')}`;
    const session: FakeCheckoutSession = {
      id,
      object: 'checkout.session',
      url: `${baseUrl}/c/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      mode: form.mode!,
      amount_total: Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]']),
      currency: form['line_items[0][price_data][currency]']!,
      customer_email: form.customer_email ?? '',
      client_reference_id: form.client_reference_id ?? null,
      metadata: Object.fromEntries(
        Object.entries(form)
          .filter(([name]) => /^metadata\[[^\]]+\]$/.test(name))
          .map(([name, value]) => [name.slice('metadata['.length, -1), value]),
      ),
      success_url: form.success_url!,
      cancel_url: form.cancel_url!,
      expires_at: form.expires_at ? Number(form.expires_at) : nowSeconds() + 24 * 3600,
      locale: form.locale ?? null,
      payment_intent: null,
      created: nowSeconds(),
      livemode: false,
      line_items_name: form['line_items[0][price_data][product_data][name]']!,
    };
    sessions.set(id, session);
    return { status: 200, answer: session };
  }

  const sessionOfPayment = (paymentIntent: string) =>
    [...sessions.values()].find((candidate) => candidate.payment_intent === paymentIntent);
  const refundedOf = (paymentIntent: string) =>
    [...refunds.values()]
      .filter((refund) => refund.payment_intent === paymentIntent)
      .reduce((sum, refund) => sum + refund.amount, 0);

  /** POST /v1/refunds: what is left of the payment, or `amount` of it (as the dashboard may). */
  function createRefund(form: Record<string, string>) {
    const paymentIntent = form.payment_intent;
    if (!paymentIntent)
      return { status: 400, answer: errorBody('Missing required param: payment_intent.', { param: 'payment_intent' }) };
    const session = sessionOfPayment(paymentIntent);
    if (!session) {
      return {
        status: 400,
        answer: errorBody(`No such payment_intent: '${paymentIntent}'`, {
          param: 'payment_intent',
          code: 'resource_missing',
        }),
      };
    }
    const left = session.amount_total - refundedOf(paymentIntent);
    if (left <= 0) {
      return {
        status: 400,
        answer: errorBody(`Charge for ${paymentIntent} has already been refunded.`, {
          code: 'charge_already_refunded',
        }),
      };
    }
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      return { status: 400, answer: errorBody('Invalid positive integer.', { param: 'amount' }) };
    }
    if (amount > left) {
      const message = `Refund amount (${amount}) is greater than unrefunded amount on charge (${left}).`;
      return { status: 400, answer: errorBody(message, { param: 'amount' }) };
    }
    const refund: FakeRefund = {
      id: `re_test_${randomBytes(12).toString('hex')}`,
      object: 'refund',
      amount,
      currency: session.currency,
      payment_intent: paymentIntent,
      status: 'succeeded',
      created: nowSeconds(),
      metadata: {},
    };
    refunds.set(refund.id, refund);
    return { status: 200, answer: refund };
  }

  /** GET /v1/checkout/sessions: newest first, `limit` (10 unless asked) to a page; unknown parameters refused. */
  function listSessions(query: URLSearchParams) {
    const unknown = [...query.keys()].find((name) => !['payment_intent', 'limit'].includes(name));
    if (unknown)
      return { status: 400, answer: errorBody(`Received unknown parameter: ${unknown}`, { param: unknown }) };
    const limit = Number(query.get('limit') ?? 10);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
      return { status: 400, answer: errorBody('Invalid integer.', { param: 'limit' }) };
    }
    const paymentIntent = query.get('payment_intent');
    const matching = [...sessions.values()]
      .filter((session) => paymentIntent === null || session.payment_intent === paymentIntent)
      .reverse();
    const data = matching.slice(0, limit);
    return {
      status: 200,
      answer: { object: 'list', data, has_more: matching.length > limit, url: '/v1/checkout/sessions' },
    };
  }

  /** The Charge of a paid session's PaymentIntent as Stripe shows it now. */
  function charge(paymentIntent: string): FakeCharge {
    const session = sessionOfPayment(paymentIntent);
    if (!session) throw new Error(`no fake payment ${paymentIntent}`);
    const amountRefunded = refundedOf(paymentIntent);
    return {
      id: `ch_test_${paymentIntent.slice('pi_test_'.length)}`,
      object: 'charge',
      amount: session.amount_total,
      amount_refunded: amountRefunded,
      currency: session.currency,
      payment_intent: paymentIntent,
      paid: true,
      refunded: amountRefunded >= session.amount_total,
      status: 'succeeded',
      created: session.created,
      livemode: false,
      metadata: {},
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', baseUrl);
    const form = Object.fromEntries(new URLSearchParams(body));
    const query = Object.fromEntries(url.searchParams);
    calls.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, form, query });

    if (failures.remaining > 0) {
      failures.remaining -= 1;
      return stripeError(response, failures.status, 'Something went wrong on Stripe’s end.', { type: 'api_error' });
    }
    if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
      return stripeError(response, 401, 'Invalid API Key provided.');
    }
    const version = request.headers['stripe-version'];
    if (version !== undefined && !/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/.test(String(version))) {
      return stripeError(response, 400, `Invalid Stripe API version: ${String(version)}`);
    }
    if (request.method === 'POST' && !String(request.headers['content-type']).startsWith(FORM_TYPE)) {
      return stripeError(response, 400, 'Expected a form-encoded body.');
    }

    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      return answerPost(request, response, url.pathname, body, () => createSession(form));
    }
    if (request.method === 'POST' && url.pathname === '/v1/refunds') {
      return answerPost(request, response, url.pathname, body, () => createRefund(form));
    }
    if (request.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
      const { status, answer } = listSessions(url.searchParams);
      return send(response, status, answer);
    }
    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const session = sessions.get(decodeURIComponent(match[1]!));
      if (!session) {
        return stripeError(response, 404, 'No such checkout.session.', {
          param: 'id',
          code: 'resource_missing',
        });
      }
      return send(response, 200, session);
    }
    return stripeError(response, 404, `Unrecognized request URL (${request.method}).`);
  }

  server.handle = (request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  };

  return {
    baseUrl,
    calls,
    sessions,
    refunds,
    /** The next `calls` calls answer `status` (a 5xx or 429 to play an outage; the SDK retries a 5xx once). */
    failNext(status: number, calls = 1) {
      failures.status = status;
      failures.remaining = calls;
    },
    /** Every call answers `status` until `recover()`. */
    failUntilRecovered(status: number) {
      failures.status = status;
      failures.remaining = Number.POSITIVE_INFINITY;
    },
    recover() {
      failures.remaining = 0;
    },
    /**
     * Plays the customer paying (or the session lapsing) on Stripe's page. A session that becomes paid
     * gets a PaymentIntent, which is what a refund names.
     */
    setSession(id: string, changes: Partial<FakeCheckoutSession>) {
      const session = sessions.get(id);
      if (!session) throw new Error(`no fake session ${id}`);
      Object.assign(session, changes);
      if (session.payment_status === 'paid' && !session.payment_intent) {
        session.payment_intent = `pi_test_${randomBytes(12).toString('hex')}`;
      }
      return session;
    },
    charge,
    /** Plays someone refunding in Stripe's dashboard (all that is left, or `amount`): answers the Charge after. */
    refundInDashboard(paymentIntent: string, amount?: number) {
      const { status, answer } = createRefund({
        payment_intent: paymentIntent,
        ...(amount === undefined ? {} : { amount: String(amount) }),
      });
      if (status !== 200) throw new Error(`fake refund refused: ${JSON.stringify(answer)}`);
      return charge(paymentIntent);
    },
    close: () => server.close(),
  };
}

const FORM_TYPE = 'application/x-www-form-urlencoded';

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** Stripe's own checks on the fields VetCall sends; answers the first problem. */
function checkSessionForm(form: Record<string, string>, now: Date): { message: string; param?: string } | undefined {
  const required = [
    'mode',
    'line_items[0][price_data][currency]',
    'line_items[0][price_data][unit_amount]',
    'line_items[0][price_data][product_data][name]',
    'line_items[0][quantity]',
    'success_url',
    'cancel_url',
  ];
  for (const param of required) if (!form[param]) return { message: `Missing required param: ${param}.`, param };
  if (!['payment', 'setup', 'subscription'].includes(form.mode!)) return { message: 'Invalid mode.', param: 'mode' };
  const amount = form['line_items[0][price_data][unit_amount]']!;
  if (!/^\d+$/.test(amount) || Number(amount) < 1) {
    return { message: 'Invalid integer.', param: 'line_items[0][price_data][unit_amount]' };
  }
  if (!/^[a-z]{3}$/.test(form['line_items[0][price_data][currency]']!)) {
    return { message: 'Invalid currency.', param: 'line_items[0][price_data][currency]' };
  }
  for (const param of ['success_url', 'cancel_url']) {
    if (!/^https?:\/\//.test(form[param]!)) return { message: 'Not a valid URL.', param };
  }
  if (form.expires_at !== undefined) {
    const seconds = Number(form.expires_at) - now.getTime() / 1000;
    if (!Number.isInteger(Number(form.expires_at)) || seconds < 30 * 60 || seconds > 24 * 3600) {
      return {
        message: 'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        param: 'expires_at',
      };
    }
  }
  if (form.locale !== undefined && !['auto', 'en', 'pt', 'pt-BR', 'es', 'fr', 'de'].includes(form.locale)) {
    return { message: 'Invalid locale.', param: 'locale' };
  }
  return undefined;
}
