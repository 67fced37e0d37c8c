import { todayKey } from '@vetcall/shared/dates';
import { availabilityWeeks } from '@vetcall/shared/scheduling/slots';
import { flattenVetsAvailability } from '@vetcall/shared/scheduling/vets-availability';
import type { Actor } from '../auth/auth.service.ts';
import { translate } from '../../i18n.ts';
import { listAllAvailabilities } from '../scheduling/slots.service.ts';
import type { ExportFile, ExportRequest } from './exports.service.ts';
import { buildWorkbook, exportFileName, type WorkbookColumn } from './workbook.ts';

type Deps = Parameters<typeof listAllAvailabilities>[0];

const COLUMNS: Omit<WorkbookColumn, 'header'>[] = [
  { key: 'date', type: 'date' },
  { key: 'name', type: 'text' },
  { key: 'hours', type: 'text' },
  { key: 'timezone', type: 'text' },
];

/**
 * docs/product-rules.md#manager-screens "Vets availability table with Export to Excel": the rows the manager's table
 * shows (one per vet and working date of the ten availability weeks, today taken in the manager's zone), as a workbook.
 */
export async function exportVetsAvailability(deps: Deps, actor: Actor, request: ExportRequest): Promise<ExportFile> {
  const { locale } = request;
  const today = todayKey(deps.clock.now(), request.timeZone ?? 'UTC');
  const dates = availabilityWeeks(today).flatMap((week) => week.days.map((day) => day.date));
  const rows = flattenVetsAvailability(await listAllAvailabilities(deps, actor), dates);
  const buffer = await buildWorkbook({
    sheetName: translate(locale, 'exports.sheets.vets_availability'),
    columns: COLUMNS.map((column) => ({ ...column, header: translate(locale, `exports.columns.${column.key}`) })),
    rows: rows.map((row) => ({ ...row })),
    timeZone: request.timeZone,
  });
  return {
    fileName: exportFileName(translate(locale, 'exports.files.vets_availability'), deps.clock.now()),
    buffer,
    truncated: false,
  };
}
