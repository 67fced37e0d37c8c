import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FAILED_MAIL_PAGE_SIZE,
  failedMailIdParamsSchema,
  failedMailPageSchema,
  failedMailQuerySchema,
} from '@vetcall/shared/schemas/failed-mail';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { dismissFailedMail, listFailedMail, retryFailedMail } from './failed-mail.service.ts';

/**
 * Undelivered mail, under /api/mail/failed (docs/jobs-and-mail.md#failed-mail): ours, not SPEC §7. Managers
 * only; a mail that is not failed (sent, still retrying, dismissed) or not a mail answers 404.
 */
export const failedMailRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const managersOnly = { onRequest: requireAuth(context, 'manager') };
  const security = [{ bearer: [] }];

  app.get(
    '/',
    {
      ...managersOnly,
      schema: {
        tags: ['mail'],
        summary: 'Mail the job worker gave up on after three days, newest failure first (managers)',
        description:
          `Keyset pages of at most ${FAILED_MAIL_PAGE_SIZE} rows; pass \`next_cursor\` as \`cursor\` for the next ` +
          'page (null at the end). Each row holds the recipient and subject, never the body. `total` counts all.',
        security,
        querystring: failedMailQuerySchema,
        response: { 200: failedMailPageSchema },
      },
    },
    async (request) => listFailedMail(context, actorOf(request), request.query.cursor),
  );

  app.post(
    '/:id/retry',
    {
      ...managersOnly,
      schema: {
        tags: ['mail'],
        summary: 'Queue a failed mail again now, with three more days of retries (managers)',
        security,
        params: failedMailIdParamsSchema,
        response: { 204: z.null().describe('Queued again') },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      await retryFailedMail(context, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/:id',
    {
      ...managersOnly,
      schema: {
        tags: ['mail'],
        summary: 'Dismiss a failed mail: it is deleted and never sent (managers)',
        security,
        params: failedMailIdParamsSchema,
        response: { 204: z.null().describe('Dismissed') },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      await dismissFailedMail(context, actorOf(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
