import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { JITSI_LOGO_PATH } from '../providers/video/jitsi-branding.ts';

/**
 * Security headers with a CSP that allows only our own origin. Later features widen it where they
 * must (payment provider, video provider, analytics), each naming the origin it needs.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  // The Jitsi Meet room (VIDEO_PROVIDER=jitsi): its IFrame API script, and the iframe it opens.
  const jitsiOrigin =
    config.video.provider === 'jitsi' && config.video.jitsiDomain ? [`https://${config.video.jitsiDomain}`] : [];
  // Our own WebSocket origin, for browsers that do not yet match 'self' against ws:/wss: (CSP Level 2).
  const ownSocketOrigin = new URL(config.publicUrl).origin.replace(/^http/, 'ws');
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // GA4 (docs/product-rules.md#api purchase event) only when a measurement id is configured.
        scriptSrc: ["'self'", ...(config.gaMeasurementId ? ['https://www.googletagmanager.com'] : []), ...jitsiOrigin],
        // Mantine sets inline style attributes; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        // 'self' covers our own ws:/wss: in CSP Level 3 browsers (the built-in room's signalling socket).
        connectSrc: [
          "'self'",
          ownSocketOrigin,
          ...(config.gaMeasurementId
            ? ['https://www.google-analytics.com', 'https://region1.google-analytics.com']
            : []),
          ...jitsiOrigin,
        ],
        mediaSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", ...jitsiOrigin],
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

  if (jitsiOrigin.length > 0) {
    // Jitsi's page shows our logo (logoImageUrl of the branding file): that one image may be embedded
    // cross-origin; everything else keeps helmet's Cross-Origin-Resource-Policy: same-origin.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.split('?')[0] === JITSI_LOGO_PATH) {
        void reply.header('cross-origin-resource-policy', 'cross-origin');
      }
    });
  }
}
