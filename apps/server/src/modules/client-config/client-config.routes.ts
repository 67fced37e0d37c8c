import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientConfigSchema } from '@vetcall/shared/schemas/client-config';
import { clientConfigOf } from '../../client-config.ts';
import type { Config } from '../../config.ts';

/** The few settings the browser needs before it mounts; nothing secret. */
export const clientConfigRoutes: FastifyPluginAsyncZod<{ config: Config }> = async (app, { config }) => {
  app.get(
    '/client-config',
    { schema: { tags: ['config'], summary: 'Public settings for the web app', response: { 200: clientConfigSchema } } },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      return clientConfigOf(config);
    },
  );
};
