import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { localeField } from '@vetcall/shared/schemas/fields';
import { timeZoneField } from '@vetcall/shared/schemas/scheduling';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { exportAppointments } from './appointments-export.ts';
import { exportUsers, type UserExport } from './exports.service.ts';
import { exportVetsAvailability } from './vets-availability-export.ts';
import { recordExport, type ExportKind } from './export-audit.ts';
import { sendWorkbook, XLSX_CONTENT_TYPE } from './workbook.ts';
import type { ExportFile } from './exports.service.ts';
import type { FastifyReply } from 'fastify';
import type { Actor } from '../auth/auth.service.ts';

/** Shared by every export: the language of headers and texts, and the zone date-times are shown in. */
export const exportQuery = z.object({
  /** Default: the manager's own language. */
  lang: localeField.optional(),
  /** IANA zone (the browser's) for date-times; Excel dates carry none. Default UTC. */
  tz: timeZoneField.optional(),
});

const LISTS: { path: string; list: UserExport }[] = [
  { path: '/customers', list: 'customers' },
  { path: '/vets', list: 'vets' },
  { path: '/managers', list: 'managers' },
];

/**
 * docs/product-rules.md#manager-screens / #api "Export to Excel": the user lists as .xlsx downloads, managers only,
 * under /api/exports.
 */
export const exportRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  /** Every export is recorded in the audit log before its file is sent; a cut file says so in a header. */
  const sendExport = async (reply: FastifyReply, actor: Actor, kind: ExportKind, file: ExportFile) => {
    await recordExport(context, actor, kind, file);
    if (file.truncated) void reply.header('x-export-truncated', 'true');
    return sendWorkbook(reply, file.fileName, file.buffer);
  };

  for (const { path, list } of LISTS) {
    app.get(
      path,
      {
        onRequest: requireAuth(context, 'manager'),
        schema: {
          tags: ['exports'],
          summary: `The ${list} list as an Excel workbook (yyyymmddhhmmss-<name>.xlsx); managers only`,
          security: [{ bearer: [] }],
          querystring: exportQuery,
          produces: [XLSX_CONTENT_TYPE],
        },
      },
      async (request, reply) => {
        const actor = actorOf(request);
        const file = await exportUsers(context, list, {
          locale: request.query.lang ?? actor.locale,
          timeZone: request.query.tz,
        });
        // The first rows by id are sent when there are more than an export holds; the client can say so.
        return sendExport(reply, actor, list, file);
      },
    );
  }

  app.get(
    '/vets-availability',
    {
      onRequest: requireAuth(context, 'manager'),
      schema: {
        tags: ['exports'],
        summary: 'Vets availability (date, name, hours, zone) over the ten availability weeks as .xlsx; managers',
        description: 'Today, and so the first week, is taken in `tz` (default UTC).',
        security: [{ bearer: [] }],
        querystring: exportQuery,
        produces: [XLSX_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const file = await exportVetsAvailability(context, actor, {
        locale: request.query.lang ?? actor.locale,
        timeZone: request.query.tz,
      });
      return sendExport(reply, actor, 'vets_availability', file);
    },
  );

  app.get(
    '/appointments',
    {
      onRequest: requireAuth(context, 'manager'),
      schema: {
        tags: ['exports'],
        summary: 'The managers\u2019 appointments list as .xlsx (yyyymmddhhmmss-<name>.xlsx); managers only',
        description:
          '`param` is the filter of GET /api/appointments/mngrecord/{param}, `<from>_<to>_<vet user id|all>`, ' +
          'its days taken in `tz` (default UTC), which also is the zone of the date-times. Rows in (schedule, ' +
          'id) order; when more match than an export holds, the first are sent with `x-export-truncated: true`.',
        security: [{ bearer: [] }],
        querystring: exportQuery.extend({ param: z.string().max(40) }),
        produces: [XLSX_CONTENT_TYPE],
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const file = await exportAppointments(context, actor, request.query.param, {
        locale: request.query.lang ?? actor.locale,
        timeZone: request.query.tz,
      });
      return sendExport(reply, actor, 'appointments', file);
    },
  );
};
