import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountTokenBodySchema,
  builtinCalendarGrantSchema,
  calendarAuthorizeQuerySchema,
  calendarAuthorizeResponseSchema,
  calendarLinkStatusSchema,
  calendarVetParamsSchema,
} from '@vetcall/shared/schemas/calendar-link';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { createCalendarLinkProvider } from '../../providers/calendar/create-calendar-link-provider.ts';
import {
  createBuiltinCalendarGrant,
  getCalendarAuthorizeUrl,
  linkCalendar,
  unlinkCalendar,
} from './calendar-link.service.ts';

/**
 * docs/product-rules.md#calendar-callback, #states Calendar linking, #api: a vet links and unlinks their own external
 * calendar, under /api/vets. vet_id is the vet's id (vets.id), as in every /api/vets path.
 */
export const calendarLinkRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const security = [{ bearer: [] }];
  const vetOnly = requireAuth(context, 'vet');
  const deps = { ...context, calendar: createCalendarLinkProvider(context) };

  app.get(
    '/calendar/authorize/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'The URL the browser goes to so the vet authorises their calendar (the vet themself)',
        description:
          'The provider sends the browser back to /auth/callback with the account token and the state ' +
          '`vet_id:<id> lang:<lang> access:<access>`. `lang` defaults to the vet’s language.',
        security,
        params: calendarVetParamsSchema,
        querystring: calendarAuthorizeQuerySchema,
        response: { 200: calendarAuthorizeResponseSchema },
      },
    },
    async (request) => getCalendarAuthorizeUrl(deps, actorOf(request), request.params.vet_id, request.query),
  );

  app.post(
    '/calendar/builtin/grant/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'A one-time account token of the built-in calendar, valid 10 minutes (builtin provider only)',
        security,
        params: calendarVetParamsSchema,
        response: { 200: builtinCalendarGrantSchema },
      },
    },
    async (request) => createBuiltinCalendarGrant(deps, actorOf(request), request.params.vet_id),
  );

  app.put(
    '/token/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'Link the calendar: the provider must accept the account token before it is stored',
        description: 'The body vet_id must equal the path one. At most 10 attempts per vet in 10 minutes.',
        security,
        params: calendarVetParamsSchema,
        body: accountTokenBodySchema,
        response: { 200: calendarLinkStatusSchema },
      },
    },
    async (request) => linkCalendar(deps, actorOf(request), request.params.vet_id, request.body),
  );

  app.put(
    '/removecalendarassociation/:vet_id',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'Unlink the calendar (forget the account token)',
        security,
        params: calendarVetParamsSchema,
        response: { 200: calendarLinkStatusSchema },
      },
    },
    async (request) => unlinkCalendar(deps, actorOf(request), request.params.vet_id),
  );
};
