import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { hang, hangAfterHeaders, startFakeHttpServer, unusedBaseUrl } from '../../../test/fake-http-server.ts';
import { type FakeStripe, startFakeStripe } from '../../../test/fake-stripe.ts';
import { signStripeWebhook } from '../../../test/stripe-webhook-events.ts';
import {
  type CheckoutSessionRequest,
  constructStripeEvent,
  createStripeClient,
  STRIPE_API_VERSION,
  stripeEndpoint,
  StripeRequestRefused,
  StripeUnavailable,
} from './stripe.ts';

const SECRET = 'whsec_unit_test_secret';
const NOW = new Date('2026-11-20T10:00:00Z');
const T = NOW.getTime() / 1000;

describe('stripeEndpoint', () => {
  it('gives the SDK the host, port and protocol of STRIPE_API_URL', () => {
    expect(stripeEndpoint('https://api.stripe.com')).toEqual({ host: 'api.stripe.com', port: 443, protocol: 'https' });
    expect(stripeEndpoint('http://127.0.0.1:4242')).toEqual({ host: '127.0.0.1', port: '4242', protocol: 'http' });
    expect(stripeEndpoint('http://[::1]:4242')).toEqual({ host: '::1', port: '4242', protocol: 'http' });
  });

  it('refuses what the SDK cannot reach: a path (it adds /v1/ itself) or another scheme', () => {
    expect(() => stripeEndpoint('https://proxy.test/stripe')).toThrow(/without a path/);
    expect(() => stripeEndpoint('ftp://api.stripe.com')).toThrow(/http\(s\) origin/);
  });
});

describe('constructStripeEvent', () => {
  const body = '{\n  "id": "evt_1",\n  "object": "event",\n  "type": "checkout.session.completed"\n}';
  const raw = Buffer.from(body);
  const verified = (payload: Buffer, header: string | undefined) =>
    constructStripeEvent(payload, header, SECRET, NOW).verified;

  it('accepts what Stripe signs, on the exact bytes, and answers the event', () => {
    expect(constructStripeEvent(raw, signStripeWebhook(body, SECRET, T), SECRET, NOW)).toEqual({
      verified: true,
      event: JSON.parse(body),
    });
    expect(verified(Buffer.from(JSON.stringify(JSON.parse(body))), signStripeWebhook(body, SECRET, T))).toBe(false);
  });

  it('accepts any one of several v1 signatures and ignores v0', () => {
    const header = signStripeWebhook(body, 'whsec_other', T, SECRET);
    expect(verified(raw, `${header},v0=${'a'.repeat(64)}`)).toBe(true);
    expect(verified(raw, signStripeWebhook(body, 'whsec_other', T))).toBe(false);
  });

  it('holds the timestamp to 300 seconds either way', () => {
    for (const [offset, ok] of [
      [-300, true],
      [-301, false],
      [300, true],
      [301, false],
    ] as const) {
      expect(verified(raw, signStripeWebhook(body, SECRET, T + offset)), `${offset}`).toBe(ok);
    }
  });

  it('refuses malformed headers', () => {
    const good = signStripeWebhook(body, SECRET, T);
    const v1 = good.split(',')[1]!;
    for (const header of [
      undefined,
      '',
      'nonsense',
      v1,
      `t=abc,${v1}`,
      `t=${T},v1=zz`,
      `t=${T},v1=${'0'.repeat(63)}`,
      // A second, future t= does not get past the tolerance.
      `t=${T + 3600},${good}`,
    ]) {
      expect(verified(raw, header), String(header)).toBe(false);
    }
    // The timestamp is part of what is signed: moving it breaks the signature.
    expect(verified(raw, `t=${T + 1},${v1}`)).toBe(false);
  });

  it('throws a SyntaxError for a signed body that is not JSON', () => {
    expect(() =>
      constructStripeEvent(Buffer.from('{"id":'), signStripeWebhook('{"id":', SECRET, T), SECRET, NOW),
    ).toThrow(SyntaxError);
  });
});

describe('the Stripe client against the fake Stripe', () => {
  let stripe: FakeStripe;
  const clock = fixedClock(NOW);
  const request: CheckoutSessionRequest = {
    amountCents: 2500,
    itemName: 'Consulta & vídeo',
    customerEmail: 'ana@example.test',
    paymentHash: 'payment-hash-0001',
    successUrl: 'https://vetcall.test/requestsent/payment-hash-0001?lang=en',
    cancelUrl: 'https://vetcall.test/customer?payment_canceled=payment-hash-0001',
    expiresAt: new Date(NOW.getTime() + 45 * 60_000),
    locale: 'en',
  };
  const client = (settings: { apiUrl?: string; secretKey?: string; timeoutMs?: number } = {}) =>
    createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_unit', ...settings });

  beforeEach(async () => {
    stripe = await startFakeStripe({ secretKey: 'sk_test_unit', clock });
  });
  afterEach(async () => {
    await stripe.close();
  });

  it('creates a session, answers the same one for a retried idempotency key, and retrieves it', async () => {
    const session = await client().createCheckoutSession(request, 'checkout-session-1');
    expect(session).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2500,
      currency: 'eur',
      client_reference_id: 'payment-hash-0001',
      metadata: { payment_hash: 'payment-hash-0001' },
      payment_intent: null,
    });
    expect(session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    expect(await client().createCheckoutSession(request, 'checkout-session-1')).toEqual(session);
    expect(stripe.sessions.size).toBe(1);
    expect(await client().retrieveCheckoutSession(session.id)).toEqual(session);
    expect(await client().retrieveCheckoutSession('cs_test_unknown')).toBeNull();
  });

  it('sends the pinned API version, our idempotency key and the nested parameters form-encoded', async () => {
    await client().createCheckoutSession(request, 'checkout-session-2');
    const call = stripe.calls[0]!;
    expect(call.headers['stripe-version']).toBe(STRIPE_API_VERSION);
    expect(call.headers['idempotency-key']).toBe('checkout-session-2');
    expect(call.form).toMatchObject({
      'line_items[0][price_data][product_data][name]': 'Consulta & vídeo',
      'line_items[0][price_data][unit_amount]': '2500',
      'metadata[payment_hash]': 'payment-hash-0001',
      expires_at: String(T + 45 * 60),
    });
  });

  it('exposes the PaymentIntent of a paid session and refunds it once', async () => {
    const { id } = await client().createCheckoutSession(request, 'checkout-session-3');
    const paymentIntent = stripe.setSession(id, { status: 'complete', payment_status: 'paid' }).payment_intent!;
    expect(await client().retrieveCheckoutSession(id)).toMatchObject({ payment_intent: paymentIntent });

    const refund = await client().refundPayment(paymentIntent, 'refund-payment-hash-0001');
    expect(refund).toEqual({
      id: expect.stringMatching(/^re_test_/),
      amount: 2500,
      currency: 'eur',
      status: 'succeeded',
      payment_intent: paymentIntent,
    });
    expect(stripe.calls.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/refunds',
      form: { payment_intent: paymentIntent },
      headers: { 'idempotency-key': 'refund-payment-hash-0001' },
    });
    // A retried call answers the same refund; another refund of the same payment is refused.
    expect(await client().refundPayment(paymentIntent, 'refund-payment-hash-0001')).toEqual(refund);
    expect(stripe.refunds.size).toBe(1);
    await expect(client().refundPayment(paymentIntent, 'another-key')).rejects.toMatchObject({
      name: 'StripeRequestRefused',
      status: 400,
      stripeCode: 'charge_already_refunded',
    });
    await expect(client().refundPayment('pi_unknown', 'refund-unknown')).rejects.toMatchObject({
      status: 400,
      stripeCode: 'resource_missing',
    });
  });

  it('finds the Checkout Session of a payment through the list API, and none for a payment it did not take', async () => {
    const { id } = await client().createCheckoutSession(request, 'checkout-session-list');
    await client().createCheckoutSession({ ...request, paymentHash: 'payment-hash-0002' }, 'checkout-session-other');
    const paymentIntent = stripe.setSession(id, { status: 'complete', payment_status: 'paid' }).payment_intent!;
    const sessions = await client().listCheckoutSessionsOfPayment(paymentIntent);
    expect(sessions).toEqual([await client().retrieveCheckoutSession(id)]);
    expect(sessions[0]).toMatchObject({ payment_intent: paymentIntent, client_reference_id: 'payment-hash-0001' });
    expect(stripe.calls.find((call) => call.method === 'GET' && call.path === '/v1/checkout/sessions')).toMatchObject({
      query: { payment_intent: paymentIntent },
      headers: { 'stripe-version': STRIPE_API_VERSION },
    });
    expect(await client().listCheckoutSessionsOfPayment('pi_test_unknown')).toEqual([]);
  });

  it('reports Stripe’s refusals: other parameters under one idempotency key, a wrong key, a bad expiry', async () => {
    await client().createCheckoutSession(request, 'checkout-session-4');
    await expect(
      client().createCheckoutSession({ ...request, amountCents: 1 }, 'checkout-session-4'),
    ).rejects.toMatchObject({
      name: 'StripeRequestRefused',
      status: 400,
      stripeCode: 'idempotency_error',
    });
    await expect(
      client({ secretKey: 'sk_test_wrong' }).createCheckoutSession(request, 'checkout-session-5'),
    ).rejects.toBeInstanceOf(StripeRequestRefused);
    await expect(
      client().createCheckoutSession(
        { ...request, expiresAt: new Date(NOW.getTime() + 10 * 60_000) },
        'checkout-session-6',
      ),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('retries a passing 5xx once, under the same idempotency key', async () => {
    stripe.failNext(503);
    const session = await client().createCheckoutSession(request, 'checkout-session-7');
    expect(session.status).toBe('open');
    expect(stripe.calls.map((call) => call.headers['idempotency-key'])).toEqual([
      'checkout-session-7',
      'checkout-session-7',
    ]);
  });

  it('reports an outage: 5xx and 429 (retried or not), a body that is not JSON, no answer in time, no server', async () => {
    for (const status of [503, 429]) {
      stripe.failUntilRecovered(status);
      await expect(client().createCheckoutSession(request, 'checkout-session-8')).rejects.toBeInstanceOf(
        StripeUnavailable,
      );
    }
    stripe.recover();

    for (const handler of [hang, hangAfterHeaders]) {
      const silent = await startFakeHttpServer(handler);
      try {
        const slow = createStripeClient({
          apiUrl: silent.baseUrl,
          secretKey: 'sk_test_unit',
          timeoutMs: 100,
          maxNetworkRetries: 0,
        });
        await expect(slow.retrieveCheckoutSession('cs_1')).rejects.toThrow(/no answer within 100 ms/);
      } finally {
        await silent.close();
      }
    }
    const html = await startFakeHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
    });
    try {
      await expect(client({ apiUrl: html.baseUrl }).retrieveCheckoutSession('cs_1')).rejects.toBeInstanceOf(
        StripeUnavailable,
      );
    } finally {
      await html.close();
    }
    await expect(client({ apiUrl: await unusedBaseUrl() }).retrieveCheckoutSession('cs_1')).rejects.toThrow(
      /unreachable/,
    );
  });
});
