import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParam } from '@vetcall/shared/schemas/fields';
import { icsFeedStatusSchema, icsFeedUrlSchema } from '@vetcall/shared/schemas/ics-feed';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { disableIcsFeed, getIcsFeedStatus, regenerateIcsFeed, renderIcsFeed } from './ics-feed.service.ts';

/** vet_id is the vet id (vets.id), as in every /api/vets path; only that vet manages their feed. */
const vetParams = z.object({ vet_id: idParam });

/** The vet's own ICS subscription URL, under /api/vets: the vet themself only (managers too are refused). */
export const icsFeedRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];
  const vetOnly = requireAuth(context, 'vet');

  app.get(
    '/icsfeed/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['ics feed'],
        summary: 'Whether the vet has a calendar subscription URL (it is shown only when made)',
        security,
        params: vetParams,
        response: { 200: icsFeedStatusSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => getIcsFeedStatus(context, actorOf(request), request.params.vet_id),
  );

  app.post(
    '/icsfeed/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['ics feed'],
        summary: 'Make or remake the calendar subscription URL; an earlier URL stops working at once',
        security,
        params: vetParams,
        response: { 200: icsFeedUrlSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request, reply) => {
      // The URL holds a secret that is never shown again: no cache may keep it.
      void reply.header('cache-control', 'no-store');
      return regenerateIcsFeed(context, actorOf(request), request.params.vet_id);
    },
  );

  app.delete(
    '/icsfeed/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['ics feed'],
        summary: 'Turn the calendar subscription off: no URL works until a new one is made',
        security,
        params: vetParams,
        response: { 200: icsFeedStatusSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => disableIcsFeed(context, actorOf(request), request.params.vet_id),
  );
};

/** The feed itself, under /api/calendar: no login, the secret in the path is the credential. */
export const calendarFeedRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  app.get(
    '/feed/:token.ics',
    {
      schema: {
        tags: ['ics feed'],
        summary: 'A vet’s confirmed and completed bookings as iCalendar (RFC 5545); 404 for an unknown URL',
        params: z.object({ token: z.string() }),
        produces: ['text/calendar'],
        response: { 200: z.string().describe('An iCalendar document') },
        errors: { 404: ['not_found'], 429: ['too_many_requests'] },
      },
    },
    async (request, reply) => {
      const body = await renderIcsFeed(context, request.params.token, request.ip);
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="vetcall.ics"')
        .send(body);
    },
  );
};
