import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';
import { JITSI_LOGO_PATH } from '../providers/video/jitsi-branding.ts';

/**
 * The headers of a JSON answer (OWASP REST Security Cheat Sheet, "Security Headers"; ADR 021): no type
 * sniffing, never framed (drag-and-drop clickjacking), never read by another origin's no-cors request, HTTPS
 * pinned where it applies. The headers that only steer a document (its scripts, styles, window, DNS
 * prefetching, legacy XSS filter, the referrer of what it loads) do nothing for JSON that no browser renders,
 * and cost every hot read about 800 bytes and their checks.
 */
const JSON_ANSWER_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
};

const isJson = (contentType: unknown) => typeof contentType === 'string' && contentType.startsWith('application/json');

/**
 * Security headers: every page, file and other answer gets helmet's full set with a CSP that allows only our
 * own origin (later features widen it where they must — payment provider, video provider, analytics — each
 * naming the origin it needs); JSON answers get {@link JSON_ANSWER_HEADERS}. A header the route set itself
 * (a photo's own CSP) is kept.
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  // The Jitsi Meet room (VIDEO_PROVIDER=jitsi): its IFrame API script, and the iframe it opens.
  const jitsiOrigin =
    config.video.provider === 'jitsi' && config.video.jitsiDomain ? [`https://${config.video.jitsiDomain}`] : [];
  // Our own WebSocket origin, for browsers that do not yet match 'self' against ws:/wss: (CSP Level 2).
  const ownSocketOrigin = new URL(config.publicUrl).origin.replace(/^http/, 'ws');
  const headers = headersOf({
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
  const hsts = headers['strict-transport-security'];
  const jsonHeaders = hsts ? { ...JSON_ANSWER_HEADERS, 'strict-transport-security': hsts } : JSON_ANSWER_HEADERS;
  const pageHeaderNames = Object.keys(headers);
  const jsonHeaderNames = Object.keys(jsonHeaders);
  // Chosen when the answer is known (its content type, errors included), once per response. Helmet works the
  // headers out once here, not per request (it re-reads its whole configuration on each call, a measurable
  // share of a cached read's time).
  app.addHook('onSend', (_request, reply, payload, done) => {
    const json = isJson(reply.getHeader('content-type'));
    const set = json ? jsonHeaders : headers;
    for (const name of json ? jsonHeaderNames : pageHeaderNames) {
      if (!reply.hasHeader(name)) void reply.header(name, set[name]!);
    }
    done(null, payload);
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

/** The headers helmet sets on a response, computed once: our options hold no per-request part (no nonces). */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}
