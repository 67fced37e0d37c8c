import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { rememberingValidatorCompiler } from './lib/remembered-validation.ts';
import type { AppContext } from './context.ts';
import { loginRoutes, sessionRoutes } from './modules/auth/auth.routes.ts';
import { registerActorSlots } from './modules/auth/authentication.ts';
import { breedRoutes } from './modules/breeds/breeds.routes.ts';
import { customerRoutes } from './modules/customers/customers.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { vetRoutes } from './modules/vets/vets.routes.ts';
import { availabilityRoutes } from './modules/availability/availability.routes.ts';
import { calendarLinkRoutes } from './modules/calendar-link/calendar-link.routes.ts';
import { holdRoutes } from './modules/scheduling/holds.routes.ts';
import { slotRoutes } from './modules/scheduling/slots.routes.ts';
import { petRoutes } from './modules/pets/pets.routes.ts';
import { postalCodeRoutes } from './modules/postal-codes/postal-codes.routes.ts';
import { photoRoutes } from './modules/photos/photos.routes.ts';
import { exportRoutes } from './modules/exports/exports.routes.ts';
import { productRoutes } from './modules/products/products.routes.ts';
import { accessCodeRoutes } from './modules/access-codes/access-codes.routes.ts';
import { failedMailRoutes } from './modules/failed-mail/failed-mail.routes.ts';
import { appointmentRoutes } from './modules/appointments/booking.routes.ts';
import { calendarFeedRoutes, icsFeedRoutes } from './modules/ics-feed/ics-feed.routes.ts';
import { appointmentConfirmationRoutes } from './modules/appointments/confirmation.routes.ts';
import { appointmentFileRoutes } from './modules/appointments/files.routes.ts';
import { appointmentLifecycleRoutes } from './modules/appointments/lifecycle.routes.ts';
import { appointmentRecordRoutes, vetAppointmentRoutes } from './modules/appointments/records.routes.ts';
import { paymentLookupRoutes } from './modules/appointments/payment-lookup.routes.ts';
import { paymentRoutes } from './modules/payments/payments.routes.ts';
import { createPostalCodeLookup } from './providers/postal-codes/postal-code-service.ts';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.ts';
import { devMailRoutes } from './modules/dev-mail/dev-mail.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { translationRoutes } from './modules/translations/translations.routes.ts';
import { jitsiBrandingRoutes } from './modules/video/jitsi-branding.routes.ts';
import { roomAccessRoutes } from './modules/video/room-access.routes.ts';
import { lazyChildLoggerFactory } from './lib/lazy-request-logger.ts';
import { signallingRoutes } from './modules/video/signalling.routes.ts';
import { registerControlCharacterGuard } from './plugins/control-characters.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { errorLogFields } from './plugins/error-log.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRequestLog } from './plugins/request-log.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { registerPasswordStrengthLoading } from './plugins/password-strength-loading.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';

/** Paths whose rest is a secret: the token of a vet's calendar feed URL, /api/calendar/feed/{token}.ics. */
const SECRET_PATH_PREFIX = /^.*?\/api\/+calendar\/+feed\//i;

/**
 * What a request log line says about the request: the path only, as query strings can hold reset
 * tokens, and with the secret of a feed URL redacted. The router decodes %XX before matching, so the
 * path is matched decoded too ('/api/%63alendar/feed/…' reaches the feed).
 */
export function requestLogFields(request: { method: string; url: string; ip?: string }) {
  const path = request.url.split('?')[0] ?? '';
  const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const secretPrefix = SECRET_PATH_PREFIX.exec(decoded);
  return {
    method: request.method,
    url: secretPrefix ? `${secretPrefix[0]}[redacted]` : path,
    remoteAddress: request.ip,
  };
}

/**
 * The logger: request lines through requestLogFields, errors through errorLogFields (no SQL parameters,
 * driver details or other data an error may carry). `stream` is for tests that read what is logged.
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    // Fastify's type wants a stack on every logged error; ours leaves it out when there is none.
    serializers: { req: requestLogFields, err: (error: unknown) => ({ stack: '', ...errorLogFields(error) }) },
    ...(stream ? { stream } : {}),
  };
}

/**
 * Request ids for the log: this process's random prefix and a counter, unique across instances and
 * restarts like a UUID but without drawing random bytes per request (a hot read's budget is tens of µs).
 */
const requestIdPrefix = randomBytes(6).toString('base64url');
let requestCount = 0;
function nextRequestId(): string {
  requestCount += 1;
  return `${requestIdPrefix}-${requestCount.toString(36)}`;
}

const DISPLAY_NAME = Symbol.for('fastify.display-name');

/**
 * A route module with the name Fastify gives it in errors and its plugin tree. Without one, Fastify looks each
 * plugin up among every loaded CommonJS module (require.cache), a few thousand of them in a test worker: a tenth
 * of each app's build, which the tests pay once per test.
 */
function named<Plugin extends { name: string }>(plugin: Plugin): Plugin {
  const labelled = plugin as Plugin & { [DISPLAY_NAME]?: string };
  labelled[DISPLAY_NAME] ??= plugin.name;
  return plugin;
}

/** Builds the whole HTTP application; every module is registered here, explicitly. */
export async function buildApp(context: AppContext): Promise<FastifyInstance> {
  const { config } = context;
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: false,
    // plugins/request-log.ts logs what needs a look, once per request.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: nextRequestId,
    childLoggerFactory: lazyChildLoggerFactory,
  }).withTypeProvider<ZodTypeProvider>();

  // The limiter's Redis connection (REDIS_URL) ends with the app that uses it.
  app.addHook('onClose', () => context.limiter.close());
  app.setValidatorCompiler(rememberingValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerActorSlots(app);
  registerRequestLog(app, { logLevel: config.logLevel });
  // Before any route: it finds the routes that set a password as they are added.
  registerPasswordStrengthLoading(app);
  registerControlCharacterGuard(app);
  registerSecurityHeaders(app, config);
  await registerOpenApi(app);

  await app.register(named(healthRoutes), { prefix: '/api', context });
  await app.register(named(loginRoutes), { prefix: '/api/login', context });
  await app.register(named(sessionRoutes), { prefix: '/api', context });
  await app.register(named(translationRoutes), { prefix: '/api/translations' });
  await app.register(named(clientConfigRoutes), { prefix: '/api', config });
  await app.register(named(customerRoutes), { prefix: '/api/users', context });
  await app.register(named(staffRoutes), { prefix: '/api/users', context });
  await app.register(named(vetRoutes), { prefix: '/api/vets', context });
  await app.register(named(availabilityRoutes), { prefix: '/api/vets', context });
  await app.register(named(calendarLinkRoutes), { prefix: '/api/vets', context });
  await app.register(named(slotRoutes), { prefix: '/api/vets', context });
  await app.register(named(holdRoutes), { prefix: '/api/scheduling', context });
  await app.register(named(breedRoutes), { prefix: '/api/pets' });
  await app.register(named(petRoutes), { prefix: '/api/pets', context });
  await app.register(named(postalCodeRoutes), {
    prefix: '/api/postalcodes',
    context,
    lookup: createPostalCodeLookup(config.postalCodes, context.clock),
  });
  await app.register(named(photoRoutes), { prefix: '/api/users', context });
  await app.register(named(exportRoutes), { prefix: '/api/exports', context });
  await app.register(named(productRoutes), { prefix: '/api/products', context });
  await app.register(named(accessCodeRoutes), { prefix: '/api/appointmentsaccesscodes', context });
  await app.register(named(failedMailRoutes), { prefix: '/api/mail/failed', context });
  await app.register(named(auditRoutes), { prefix: '/api/audit', context });
  await app.register(named(appointmentRoutes), { prefix: '/api/appointments', context });
  await app.register(named(icsFeedRoutes), { prefix: '/api/vets', context });
  await app.register(named(calendarFeedRoutes), { prefix: '/api/calendar', context });
  await app.register(named(appointmentConfirmationRoutes), { prefix: '/api/appointments', context });
  await app.register(named(paymentLookupRoutes), { prefix: '/api/appointments', context });
  await app.register(named(appointmentRecordRoutes), { prefix: '/api/appointments', context });
  await app.register(named(appointmentFileRoutes), { prefix: '/api/appointments', context });
  await app.register(named(appointmentLifecycleRoutes), { prefix: '/api/appointments', context });
  await app.register(named(vetAppointmentRoutes), { prefix: '/api/vets', context });
  await app.register(named(paymentRoutes), { prefix: '/api/payment', context });
  await app.register(named(roomAccessRoutes), { prefix: '/api/appointments', context });
  await app.register(named(signallingRoutes), { prefix: '/api/video', context });
  await app.register(named(jitsiBrandingRoutes), { prefix: '/api/video', config });

  if (config.isDemo && context.mailer.kind === 'outbox') {
    await app.register(named(devMailRoutes), { prefix: '/dev/mail', outboxDir: path.join(config.dataDir, 'outbox') });
  }

  await registerWebApp(app, config);
  return app;
}
