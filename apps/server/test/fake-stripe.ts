import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../src/clock.ts';
import { sendJson, startFakeHttpServer } from './fake-http-server.ts';

/**
 * A local HTTP server that speaks the part of Stripe's API VetCall uses: POST /v1/checkout/sessions
 * (form-encoded, Bearer secret key, Idempotency-Key) and GET /v1/checkout/sessions/{id}. It checks what
 * Stripe checks for these calls (authentication, required fields, amounts, expires_at within 30 minutes
 * to 24 hours of its clock, the same parameters for a reused idempotency key) and answers Stripe's
 * shapes, success and error alike.
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
  line_items_name: string;
}

export interface RecordedStripeCall {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The form body as Stripe reads it (bracketed keys as sent). */
  form: Record<string, string>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function stripeError(response: ServerResponse, status: number, type: string, message: string, param?: string) {
  sendJson(response, status, { error: { type, message, ...(param ? { param } : {}) } });
}

export async function startFakeStripe(options: { secretKey: string; clock: Clock }) {
  const sessions = new Map<string, FakeCheckoutSession>();
  const idempotent = new Map<string, { body: string; session: FakeCheckoutSession }>();
  const calls: RecordedStripeCall[] = [];
  /** When set, the next call answers this HTTP status with a Stripe error body (then it clears). */
  const failures: { next: number | undefined } = { next: undefined };

  const server = await startFakeHttpServer();
  const baseUrl = server.baseUrl;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', baseUrl);
    const form = Object.fromEntries(new URLSearchParams(body));
    calls.push({ method: request.method ?? '', path: url.pathname, headers: request.headers, form });

    if (failures.next !== undefined) {
      const status = failures.next;
      failures.next = undefined;
      return stripeError(response, status, 'api_error', 'Something went wrong on Stripe’s end.');
    }
    if (request.headers.authorization !== `Bearer ${options.secretKey}`) {
      return stripeError(response, 401, 'invalid_request_error', 'Invalid API Key provided.');
    }

    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (!String(request.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return stripeError(response, 400, 'invalid_request_error', 'Expected a form-encoded body.');
      }
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') {
        const earlier = idempotent.get(key);
        if (earlier && earlier.body !== body) {
          return stripeError(
            response,
            400,
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          );
        }
        if (earlier) return sendJson(response, 200, earlier.session);
      }
      const problem = checkSessionForm(form, options.clock.now());
      if (problem) return stripeError(response, 400, 'invalid_request_error', problem.message, problem.param);
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const nowSeconds = Math.floor(options.clock.now().getTime() / 1000);
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
        expires_at: form.expires_at ? Number(form.expires_at) : nowSeconds + 24 * 3600,
        locale: form.locale ?? null,
        line_items_name: form['line_items[0][price_data][product_data][name]']!,
      };
      sessions.set(id, session);
      if (typeof key === 'string') idempotent.set(key, { body, session });
      return sendJson(response, 200, session);
    }

    const match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === 'GET' && match) {
      const session = sessions.get(decodeURIComponent(match[1]!));
      if (!session) return stripeError(response, 404, 'invalid_request_error', 'No such checkout.session.', 'id');
      return sendJson(response, 200, session);
    }
    return stripeError(response, 404, 'invalid_request_error', `Unrecognized request URL (${request.method}).`);
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
    /** The next call answers `status` (a 5xx or 429 to play an outage). */
    failNext(status: number) {
      failures.next = status;
    },
    /** Plays the customer paying (or the session lapsing) on Stripe's page. */
    setSession(id: string, changes: Partial<FakeCheckoutSession>) {
      const session = sessions.get(id);
      if (!session) throw new Error(`no fake session ${id}`);
      Object.assign(session, changes);
      return session;
    },
    close: () => server.close(),
  };
}

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

/**
 * The `Stripe-Signature` header Stripe sends with a webhook: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<payload>" with the endpoint secret>`. Written here apart from the server's verifier, so the
 * tests check one against the other. Extra secrets add more v1 entries (as while rolling a secret).
 */
export function signStripeWebhook(
  payload: string,
  secret: string,
  timestampSeconds: number,
  ...extraSecrets: string[]
) {
  const signatures = [secret, ...extraSecrets].map(
    (key) => `v1=${createHmac('sha256', key).update(`${timestampSeconds}.${payload}`, 'utf8').digest('hex')}`,
  );
  return [`t=${timestampSeconds}`, ...signatures].join(',');
}

/** A webhook event as Stripe posts it, around a Checkout Session. */
export function stripeEvent(
  type: string,
  session: Partial<FakeCheckoutSession> & { id: string },
  id = `evt_${randomBytes(12).toString('hex')}`,
) {
  return {
    id,
    object: 'event',
    api_version: '2025-09-30.clover',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    data: { object: { object: 'checkout.session', ...session } },
  };
}
