import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../src/providers/payments/stripe.ts';
import type { FakeCharge, FakeCheckoutSession } from './fake-stripe.ts';

/** What Stripe posts to VetCall's webhook, as it does: the events around the fake Stripe's objects, signed. */

/**
 * The `Stripe-Signature` header Stripe sends with a webhook, made by the SDK's own test helper. Extra
 * secrets add more v1 entries (as while rolling a secret).
 */
export function signStripeWebhook(
  payload: string,
  secret: string,
  timestampSeconds: number,
  ...extraSecrets: string[]
) {
  const [first, ...others] = [secret, ...extraSecrets].map((key) =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: key, timestamp: timestampSeconds }),
  );
  return [first!, ...others.map((header) => header.slice(header.indexOf(',') + 1))].join(',');
}

/** A webhook event as Stripe posts it, around a Checkout Session. */
export function stripeEvent(
  type: string,
  session: Partial<FakeCheckoutSession> & { id: string },
  id = `evt_${randomBytes(12).toString('hex')}`,
) {
  return eventAround(type, { object: 'checkout.session', ...session }, id);
}

/**
 * Stripe's charge.refunded event, around the Charge after the refund (FakeStripe's `charge`); a Charge
 * made without a PaymentIntent has none.
 */
export function chargeRefundedEvent(
  charge: Omit<FakeCharge, 'payment_intent'> & { payment_intent: string | null },
  id = `evt_${randomBytes(12).toString('hex')}`,
) {
  return eventAround('charge.refunded', charge, id);
}

function eventAround(type: string, object: object, id: string) {
  return {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    data: { object },
  };
}
