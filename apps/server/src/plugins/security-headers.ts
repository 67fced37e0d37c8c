import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Security headers with a CSP that allows only our own origin. Later features widen it where they
 * must (payment provider, video provider, analytics), each naming the origin it needs.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // GA4 (SPEC §7 purchase event) only when a measurement id is configured.
        scriptSrc: ["'self'", ...(config.gaMeasurementId ? ['https://www.googletagmanager.com'] : [])],
        // Mantine sets inline style attributes; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: [
          "'self'",
          ...(config.gaMeasurementId
            ? ['https://www.google-analytics.com', 'https://region1.google-analytics.com']
            : []),
        ],
        mediaSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'"],
        frameAncestors: ["'self'"],
        // The payment form posts to us; we answer 303 to the provider's checkout (Stripe when configured).
        formAction: ["'self'", ...(config.payment.provider === 'stripe' ? ['https://checkout.stripe.com'] : [])],
        objectSrc: ["'none'"],
        ...(config.isProduction ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    crossOriginEmbedderPolicy: false,
    // Only over HTTPS does HSTS mean anything; a plain-HTTP demo must not pin it.
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}
