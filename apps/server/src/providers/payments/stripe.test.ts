import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { hang, startFakeHttpServer } from '../../../test/fake-http-server.ts';
import { type FakeStripe, signStripeWebhook, startFakeStripe } from '../../../test/fake-stripe.ts';
import {
  type CheckoutSessionRequest,
  createStripeClient,
  encodeStripeForm,
  StripeRequestRefused,
  StripeUnavailable,
  verifyStripeSignature,
} from './stripe.ts';

const SECRET = 'whsec_unit_test_secret';
const NOW = new Date('2026-11-20T10:00:00Z');
const T = NOW.getTime() / 1000;

describe('encodeStripeForm', () => {
  it('encodes nested objects and arrays with brackets and leaves undefined out', () => {
    const encoded = encodeStripeForm({
      mode: 'payment',
      line_items: [{ price_data: { currency: 'eur', unit_amount: 2500, product_data: { name: 'Consulta & vídeo' } } }],
      metadata: { payment_hash: 'abc' },
      expires_at: undefined,
    });
    expect([...new URLSearchParams(encoded)]).toEqual([
      ['mode', 'payment'],
      ['line_items[0][price_data][currency]', 'eur'],
      ['line_items[0][price_data][unit_amount]', '2500'],
      ['line_items[0][price_data][product_data][name]', 'Consulta & vídeo'],
      ['metadata[payment_hash]', 'abc'],
    ]);
  });
});

describe('verifyStripeSignature', () => {
  const body = '{\n  "id": "evt_1",\n  "type": "checkout.session.completed"\n}';
  const raw = Buffer.from(body);

  it('accepts what Stripe signs, on the exact bytes', () => {
    expect(verifyStripeSignature(raw, signStripeWebhook(body, SECRET, T), SECRET, NOW)).toBe(true);
    expect(
      verifyStripeSignature(
        Buffer.from(JSON.stringify(JSON.parse(body))),
        signStripeWebhook(body, SECRET, T),
        SECRET,
        NOW,
      ),
    ).toBe(false);
  });

  it('accepts any one of several v1 signatures and ignores v0', () => {
    const header = signStripeWebhook(body, 'whsec_other', T, SECRET);
    expect(verifyStripeSignature(raw, `${header},v0=${'a'.repeat(64)}`, SECRET, NOW)).toBe(true);
    expect(verifyStripeSignature(raw, signStripeWebhook(body, 'whsec_other', T), SECRET, NOW)).toBe(false);
  });

  it('holds the timestamp to 300 seconds either way', () => {
    for (const [offset, ok] of [
      [-300, true],
      [-301, false],
      [300, true],
      [301, false],
    ] as const) {
      expect(verifyStripeSignature(raw, signStripeWebhook(body, SECRET, T + offset), SECRET, NOW), `${offset}`).toBe(
        ok,
      );
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
    ]) {
      expect(verifyStripeSignature(raw, header, SECRET, NOW), String(header)).toBe(false);
    }
    // The timestamp is part of what is signed: moving it breaks the signature.
    expect(verifyStripeSignature(raw, `t=${T + 1},${v1}`, SECRET, NOW)).toBe(false);
  });
});

describe('the Stripe client against the fake Stripe', () => {
  let stripe: FakeStripe;
  const clock = fixedClock(NOW);
  const request: CheckoutSessionRequest = {
    amountCents: 2500,
    itemName: 'Video consultation',
    customerEmail: 'ana@example.test',
    paymentHash: 'payment-hash-0001',
    successUrl: 'https://vetcall.test/requestsent/payment-hash-0001?lang=en',
    cancelUrl: 'https://vetcall.test/customer?payment_canceled=payment-hash-0001',
    expiresAt: new Date(NOW.getTime() + 45 * 60_000),
    locale: 'en',
  };

  beforeEach(async () => {
    stripe = await startFakeStripe({ secretKey: 'sk_test_unit', clock });
  });
  afterEach(async () => {
    await stripe.close();
  });

  it('creates a session, answers the same one for a retried idempotency key, and retrieves it', async () => {
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_unit' });
    const session = await client.createCheckoutSession(request, 'appointment-1');
    expect(session).toMatchObject({
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 2500,
      currency: 'eur',
      client_reference_id: 'payment-hash-0001',
      metadata: { payment_hash: 'payment-hash-0001' },
    });
    expect(session.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/pay\/cs_test_/);
    expect(await client.createCheckoutSession(request, 'appointment-1')).toEqual(session);
    expect(stripe.sessions.size).toBe(1);
    expect(await client.retrieveCheckoutSession(session.id)).toEqual(session);
    expect(await client.retrieveCheckoutSession('cs_test_unknown')).toBeNull();
  });

  it('reports Stripe’s refusals: other parameters under one idempotency key, a wrong key, a bad expiry', async () => {
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_unit' });
    await client.createCheckoutSession(request, 'appointment-2');
    await expect(client.createCheckoutSession({ ...request, amountCents: 1 }, 'appointment-2')).rejects.toMatchObject({
      name: 'StripeRequestRefused',
      status: 400,
      stripeCode: 'idempotency_error',
    });
    const wrongKey = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_wrong' });
    await expect(wrongKey.createCheckoutSession(request, 'appointment-3')).rejects.toBeInstanceOf(StripeRequestRefused);
    await expect(
      client.createCheckoutSession({ ...request, expiresAt: new Date(NOW.getTime() + 10 * 60_000) }, 'appointment-4'),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('reports an outage: 5xx, a body that is not JSON, no answer in time', async () => {
    const client = createStripeClient({ apiUrl: stripe.baseUrl, secretKey: 'sk_test_unit' });
    stripe.failNext(503);
    await expect(client.createCheckoutSession(request, 'appointment-5')).rejects.toBeInstanceOf(StripeUnavailable);

    const silent = await startFakeHttpServer(hang);
    try {
      const slow = createStripeClient({ apiUrl: silent.baseUrl, secretKey: 'sk_test_unit', timeoutMs: 100 });
      await expect(slow.retrieveCheckoutSession('cs_1')).rejects.toThrow(/no answer within 100 ms/);
    } finally {
      await silent.close();
    }
    const html = await startFakeHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>maintenance</html>');
    });
    try {
      const client2 = createStripeClient({ apiUrl: html.baseUrl, secretKey: 'sk_test_unit' });
      await expect(client2.retrieveCheckoutSession('cs_1')).rejects.toBeInstanceOf(StripeUnavailable);
    } finally {
      await html.close();
    }
  });
});
