/**
 * The least a production start accepts (config.ts refuses less): tests that are about something else run
 * in production mode with these. The SMTP server is never reached: nothing here sends mail.
 */
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  APP_SECRET: 'p'.repeat(32),
  PUBLIC_URL: 'https://vetcall.example',
  SMTP_URL: 'smtp://127.0.0.1:9',
  PAYMENT_PROVIDER: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_unused',
  STRIPE_WEBHOOK_SECRET: 'whsec_unused',
} as const;
