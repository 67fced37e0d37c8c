import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { loginRoutes, sessionRoutes } from './modules/auth/auth.routes.ts';
import { breedRoutes } from './modules/breeds/breeds.routes.ts';
import { customerRoutes } from './modules/customers/customers.routes.ts';
import { staffRoutes } from './modules/staff/staff.routes.ts';
import { vetRoutes } from './modules/vets/vets.routes.ts';
import { availabilityRoutes } from './modules/availability/availability.routes.ts';
import { holdRoutes } from './modules/scheduling/holds.routes.ts';
import { slotRoutes } from './modules/scheduling/slots.routes.ts';
import { petRoutes } from './modules/pets/pets.routes.ts';
import { postalCodeRoutes } from './modules/postal-codes/postal-codes.routes.ts';
import { photoRoutes } from './modules/photos/photos.routes.ts';
import { exportRoutes } from './modules/exports/exports.routes.ts';
import { productRoutes } from './modules/products/products.routes.ts';
import { accessCodeRoutes } from './modules/access-codes/access-codes.routes.ts';
import { createPostalCodeLookup } from './providers/postal-codes/postal-code-service.ts';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.ts';
import { devMailRoutes } from './modules/dev-mail/dev-mail.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { translationRoutes } from './modules/translations/translations.routes.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerWebApp } from './plugins/web-app.ts';

/** Request logs carry the path only: query strings can hold reset tokens and must not reach logs. */
function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
    },
  };
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
    genReqId: () => crypto.randomUUID(),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await registerSecurityHeaders(app, config);
  await registerOpenApi(app);

  await app.register(healthRoutes, { prefix: '/api', context });
  await app.register(loginRoutes, { prefix: '/api/login', context });
  await app.register(sessionRoutes, { prefix: '/api', context });
  await app.register(translationRoutes, { prefix: '/api/translations' });
  await app.register(clientConfigRoutes, { prefix: '/api', config });
  await app.register(customerRoutes, { prefix: '/api/users', context });
  await app.register(staffRoutes, { prefix: '/api/users', context });
  await app.register(vetRoutes, { prefix: '/api/vets', context });
  await app.register(availabilityRoutes, { prefix: '/api/vets', context });
  await app.register(slotRoutes, { prefix: '/api/vets', context });
  await app.register(holdRoutes, { prefix: '/api/scheduling', context });
  await app.register(breedRoutes, { prefix: '/api/pets' });
  await app.register(petRoutes, { prefix: '/api/pets', context });
  await app.register(postalCodeRoutes, {
    prefix: '/api/postalcodes',
    context,
    lookup: createPostalCodeLookup(config.postalCodes, context.clock),
  });
  await app.register(photoRoutes, { prefix: '/api/users', context });
  await app.register(exportRoutes, { prefix: '/api/exports', context });
  await app.register(productRoutes, { prefix: '/api/products', context });
  await app.register(accessCodeRoutes, { prefix: '/api/appointmentsaccesscodes', context });

  if (config.isDemo && context.mailer.kind === 'outbox') {
    await app.register(devMailRoutes, { prefix: '/dev/mail', outboxDir: path.join(config.dataDir, 'outbox') });
  }

  await registerWebApp(app, config);
  return app;
}
