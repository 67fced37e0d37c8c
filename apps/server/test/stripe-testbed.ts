import type { Clock } from '../src/clock.ts';
import { buildTestApp } from './build-test-app.ts';
import { startFakeStripe } from './fake-stripe.ts';
import { buildPaymentWorld } from './payment-world.ts';

/**
 * The app paying through Stripe, against a local server that speaks Stripe's API (fake-stripe.ts), with its
 * mail going to `smtpUrl` and the payment world built. Close `t` and `stripe` after each test.
 */
export async function startStripeTestbed(
  clock: Clock,
  options: { smtpUrl: string; secretKey: string; webhookSecret: string },
) {
  const stripe = await startFakeStripe({ secretKey: options.secretKey, clock });
  const t = await buildTestApp({
    clock,
    env: {
      SMTP_URL: options.smtpUrl,
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_API_URL: stripe.baseUrl,
      STRIPE_SECRET_KEY: options.secretKey,
      STRIPE_WEBHOOK_SECRET: options.webhookSecret,
    },
  });
  const w = await buildPaymentWorld(t);
  return { stripe, t, w };
}
