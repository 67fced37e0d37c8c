import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

/** Liveness (process up) and readiness (database reachable), for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/health',
    { schema: { tags: ['health'], response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ready') }) },
        errors: { 503: ['service_unavailable'] },
      },
    },
    async (request) => {
      try {
        await context.database.ping();
      } catch (error) {
        request.log.error({ err: error }, 'database not reachable');
        throw new AppError('service_unavailable', 503, { message: 'The database is not reachable.' });
      }
      return { status: 'ready' as const };
    },
  );
};
