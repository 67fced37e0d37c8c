import type { AppContext } from '../../context.ts';
import { forbidden } from '../../errors.ts';
import { translate } from '../../i18n.ts';
import type { Actor } from '../auth/auth.service.ts';
import { parseMngrecordParam, queryAppointmentRows } from '../appointments/lists.service.ts';
import { canListAllAppointments } from '../appointments/appointment.policy.ts';
import { statusText } from '../appointments/appointment-view.ts';
import type { ExportFile, ExportRequest } from './exports.service.ts';
import { buildWorkbook, exportFileName, MAX_EXPORT_ROWS, type WorkbookColumn } from './workbook.ts';

/**
 * The columns of the managers' appointments table (docs/product-rules.md#manager-screens); headers are
 * `exports.columns.<key>`.
 */
const COLUMNS: Omit<WorkbookColumn, 'header'>[] = [
  { key: 'id', type: 'integer' },
  { key: 'schedule', type: 'datetime' },
  { key: 'customer_name', type: 'text' },
  { key: 'pet_name', type: 'text' },
  { key: 'vet_name', type: 'text' },
  { key: 'status', type: 'text' },
  { key: 'status_date', type: 'datetime' },
  { key: 'price', type: 'money' },
];

/**
 * GET /api/exports/appointments?param=…: the managers' appointments list with the filter of
 * GET /api/appointments/mngrecord/{param} (dates in `tz`), in (schedule, id) order, at most
 * MAX_EXPORT_ROWS rows (`truncated` says when more matched), as `yyyymmddhhmmss-<appointments>.xlsx`.
 */
export async function exportAppointments(
  deps: Pick<AppContext, 'db' | 'clock'>,
  actor: Actor,
  param: string,
  request: ExportRequest,
): Promise<ExportFile> {
  if (!canListAllAppointments(actor)) throw forbidden();
  const { locale } = request;
  const filter = parseMngrecordParam(param, deps.clock.now(), request.timeZone ?? 'UTC');
  const rows = await queryAppointmentRows(deps.db, filter, { limit: MAX_EXPORT_ROWS + 1 });
  const truncated = rows.length > MAX_EXPORT_ROWS;
  const buffer = await buildWorkbook({
    sheetName: translate(locale, 'exports.sheets.appointments'),
    columns: COLUMNS.map((column) => ({ ...column, header: translate(locale, `exports.columns.${column.key}`) })),
    rows: rows.slice(0, MAX_EXPORT_ROWS).map((row) => ({
      id: row.id,
      schedule: row.schedule,
      customer_name: row.customerName,
      pet_name: row.petName,
      vet_name: row.vetName,
      status: statusText(locale, row.status),
      status_date: row.statusDate,
      price: row.priceCents,
    })),
    timeZone: request.timeZone,
  });
  return {
    fileName: exportFileName(translate(locale, 'exports.files.appointments'), deps.clock.now()),
    buffer,
    truncated,
  };
}
