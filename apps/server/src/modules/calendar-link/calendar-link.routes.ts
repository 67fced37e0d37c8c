import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accountTokenBodySchema,
  builtinCalendarGrantSchema,
  calendarAuthorizeQuerySchema,
  calendarAuthorizeResponseSchema,
  calendarLinkStatusSchema,
  calendarVetParamsSchema,
  calDavChoicesBodySchema,
  calDavLinkBodySchema,
  calDavLinkResponseSchema,
  calendarSyncStatusSchema,
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
import {
  chooseCalDavCalendars,
  getCalendarSyncStatus,
  linkCalDav,
  refreshCalendar,
} from './calendar-link-sync.service.ts';

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
        errors: { 404: ['not_found'] },
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
        errors: { 404: ['not_found', 'builtin_calendar_disabled'], 429: ['too_many_requests'] },
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
        errors: {
          400: ['calendar_token_invalid'],
          404: ['not_found'],
          429: ['too_many_requests'],
          502: ['calendar_provider_unavailable'],
        },
      },
    },
    async (request) => linkCalendar(deps, actorOf(request), request.params.vet_id, request.body),
  );

  app.put(
    '/:vet_id/calendar/caldav',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'Link a CalDAV calendar (the vet themself): the server checks the credentials before saving',
        description:
          'Busy calendars default to every calendar of the account, the target calendar to the first one. ' +
          'The password is stored encrypted and never answered. At most 10 attempts per vet in 10 minutes ' +
          '(shared with PUT /api/vets/token).',
        security,
        params: calendarVetParamsSchema,
        body: calDavLinkBodySchema,
        response: { 200: calDavLinkResponseSchema },
        errors: {
          400: ['calendar_unreachable', 'calendar_auth_failed'],
          404: ['not_found'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request) => linkCalDav(context, actorOf(request), request.params.vet_id, request.body),
  );

  app.put(
    '/:vet_id/calendar/caldav/choices',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'Choose the busy calendars and the target calendar of the linked CalDAV account (the vet themself)',
        description:
          'The server lists the account\u2019s calendars with the credentials it keeps, checks each choice against ' +
          'them and reads the busy times again. The target calendar defaults to the first one. Rate limited with ' +
          'PUT /api/vets/{vet_id}/calendar/caldav (same key).',
        security,
        params: calendarVetParamsSchema,
        body: calDavChoicesBodySchema,
        response: { 200: calendarSyncStatusSchema },
        errors: {
          400: ['calendar_unreachable', 'calendar_auth_failed'],
          404: ['not_found'],
          429: ['too_many_requests'],
        },
      },
    },
    async (request) => chooseCalDavCalendars(context, actorOf(request), request.params.vet_id, request.body),
  );

  app.get(
    '/:vet_id/calendar',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'The linked calendar: kind, calendars, when busy times were last read and the last error',
        security,
        params: calendarVetParamsSchema,
        response: { 200: calendarSyncStatusSchema },
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => getCalendarSyncStatus(context, actorOf(request), request.params.vet_id),
  );

  app.post(
    '/:vet_id/calendar/refresh',
    {
      onRequest: vetOnly,
      schema: {
        tags: ['calendar'],
        summary: 'Read the busy times of the linked calendar now (the refresh button)',
        security,
        params: calendarVetParamsSchema,
        response: { 200: calendarSyncStatusSchema },
        errors: { 404: ['not_found'], 429: ['too_many_requests'] },
      },
    },
    async (request) => refreshCalendar(context, actorOf(request), request.params.vet_id),
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
        errors: { 404: ['not_found'] },
      },
    },
    async (request) => unlinkCalendar(deps, actorOf(request), request.params.vet_id),
  );
};
