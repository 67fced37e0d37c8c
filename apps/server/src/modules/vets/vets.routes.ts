import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam, localeField } from '@vetcall/shared/schemas/fields';
import { vetRecordSchema } from '@vetcall/shared/schemas/staff';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { getVetRecord } from '../staff/staff.service.ts';

/** docs/product-rules.md#api Vets, under /api/vets (availability and calendar routes come with the scheduling work). */
export const vetRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/record/:vet_id/:language',
    {
      onRequest: requireAuth(context, 'vet', 'manager'),
      schema: {
        tags: ['vets'],
        summary: 'A vet\u2019s appointment history (the vet themself or a manager); vet_id is the vet\u2019s own id',
        security: [{ bearer: [] }],
        params: z.object({ vet_id: idParam, language: localeField }),
        response: { 200: vetRecordSchema },
      },
    },
    async (request) => getVetRecord(context, actorOf(request), request.params.vet_id),
  );
};
