import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_PAGE_SIZE,
  auditExportQuerySchema,
  auditPageSchema,
  auditQuerySchema,
} from '@vetcall/shared/schemas/audit';
import type { AppContext } from '../../context.ts';
import { actorOf, requireAuth } from '../auth/authentication.ts';
import { sendWorkbook, XLSX_CONTENT_TYPE } from '../exports/workbook.ts';
import { exportAuditEvents, listAuditEvents } from './audit.service.ts';

const FILTERS_DESCRIPTION =
  'Filters, combined: `actor` is a part of the actor\u2019s email (any case; a failed login keeps the email ' +
  'typed); `action` one action code or a group such as `appointment.`; `from` and `to` days (YYYY-MM-DD) in the ' +
  'clinic\u2019s time zone (CLINIC_TIME_ZONE), both included.';

/** The audit log, under /api/audit (docs/audit-log.md): ours, not SPEC §7. Managers only. */
export const auditRoutes: FastifyPluginAsyncZod<{ context: AppContext }> = async (app, { context }) => {
  const managersOnly = { onRequest: requireAuth(context, 'manager') };
  const security = [{ bearer: [] }];

  app.get(
    '/',
    {
      ...managersOnly,
      schema: {
        tags: ['audit'],
        summary: 'Who did what, when and from where, newest first (managers)',
        description:
          `${FILTERS_DESCRIPTION} Keyset pages of at most ${AUDIT_PAGE_SIZE} events; pass \`next_cursor\` as ` +
          '`cursor` for the next page (null at the end).',
        security,
        querystring: auditQuerySchema,
        response: { 200: auditPageSchema },
        errors: { 400: ['validation_failed'] },
      },
    },
    async (request) => listAuditEvents(context, actorOf(request), request.query),
  );

  app.get(
    '/export',
    {
      ...managersOnly,
      schema: {
        tags: ['audit'],
        summary: 'The audit log as .xlsx (yyyymmddhhmmss-<name>.xlsx), same filters, newest first (managers)',
        description:
          `${FILTERS_DESCRIPTION} Date-times are in the clinic\u2019s time zone. When more events match than an ` +
          'export holds, the newest are sent with `x-export-truncated: true`. The export is itself recorded.',
        security,
        querystring: auditExportQuerySchema,
        produces: [XLSX_CONTENT_TYPE],
        errors: { 400: ['validation_failed'] },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { lang, ...filters } = request.query;
      const file = await exportAuditEvents(context, actor, filters, lang ?? actor.locale);
      if (file.truncated) void reply.header('x-export-truncated', 'true');
      return sendWorkbook(reply, file.fileName, file.buffer);
    },
  );
};
