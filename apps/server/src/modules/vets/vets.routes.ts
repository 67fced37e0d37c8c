import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { idParam, localeField, pageQuerySchema } from '@vetcall/shared/schemas/fields';
import { vetRecordSchema } from '@vetcall/shared/schemas/staff';
import type { AppContext } from '../../context.ts';
import { cachedForActor } from '../../lib/cached-json.ts';
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
        description:
          `Newest first, in keyset pages of at most ${APPOINTMENT_PAGE_SIZE} appointments: pass \`next_cursor\` as ` +
          '`cursor` for the next page (null at the end).',
        security: [{ bearer: [] }],
        params: z.object({ vet_id: idParam, language: localeField }),
        querystring: pageQuerySchema,
        response: { 200: vetRecordSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) =>
      cachedForActor(request, reply, context, vetRecordSchema, () =>
        getVetRecord(context, actorOf(request), request.params.vet_id, request.query),
      ),
  );
};
