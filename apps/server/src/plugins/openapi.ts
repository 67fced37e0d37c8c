import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { describeOperation, OPENAPI_COMPONENT_SCHEMAS } from './openapi-operations.ts';

/** OpenAPI generated from the route schemas; browsable at /api/docs, raw at /api/docs/json. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'VetCall API',
        description:
          'Veterinary telemedicine: booking, payment and video consultations. See docs/product-rules.md#api.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: OPENAPI_COMPONENT_SCHEMAS,
      },
    },
    transform: describeOperation,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}
