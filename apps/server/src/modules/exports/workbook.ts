import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { offsetMsAt } from '@vetcall/shared/scheduling/zoned-time';

/**
 * The one way the server builds spreadsheets (docs/product-rules.md#manager-screens, #api "Export to Excel"): every
 * export of the manager screens goes through buildWorkbook, exportFileName and sendWorkbook, so they all look and
 * behave alike. Cells are typed: dates are real Excel dates, money a number in EUR, counts integers.
 */

export type ColumnType = 'text' | 'date' | 'datetime' | 'money' | 'integer';

export interface WorkbookColumn {
  /** The row property read for this column. */
  key: string;
  /** The header text, already translated. */
  header: string;
  /**
   * text: any value as text. date: a Date or 'yyyy-MM-dd'. datetime: a Date or ISO string, shown in
   * `timeZone`. money: integer cents, shown as euros. integer: a whole number.
   */
  type: ColumnType;
  /** Width in characters; by default fitted to the header and the values. */
  width?: number;
}

export interface WorkbookOptions {
  sheetName: string;
  columns: WorkbookColumn[];
  rows: Record<string, unknown>[];
  /** IANA zone whose wall-clock time datetime cells show (Excel dates carry no zone); default UTC. */
  timeZone?: string;
}

/** No export holds more rows than this; callers query at most this many. */
export const MAX_EXPORT_ROWS = 50_000;

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Number formats. Format codes are locale-neutral in the file: Excel shows separators the reader's way. */
export const NUMBER_FORMATS = {
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
  money: '#,##0.00 "€"',
  integer: '0',
} as const satisfies Partial<Record<ColumnType, string>>;

const DEFAULT_WIDTHS: Record<ColumnType, { min: number; max: number }> = {
  text: { min: 8, max: 50 },
  date: { min: 12, max: 12 },
  datetime: { min: 17, max: 17 },
  money: { min: 12, max: 16 },
  integer: { min: 6, max: 14 },
};

/** Excel's cell text limit. */
const MAX_CELL_TEXT = 32_767;
/** Characters XML 1.0 cannot carry: one of them would make Excel refuse the whole file. */
const XML_INVALID =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function textCell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = (value instanceof Date ? value.toISOString() : String(value)).replace(XML_INVALID, '');
  return text.length > MAX_CELL_TEXT ? text.slice(0, MAX_CELL_TEXT) : text;
}

function numberCell(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

/** The wall-clock time of `date` in `timeZone`, as a Date whose UTC fields hold it (what Excel stores). */
export function wallClock(date: Date, timeZone: string): Date {
  if (timeZone === 'UTC') return date;
  // To the second, as a spreadsheet cell shows it.
  const seconds = Math.floor(date.getTime() / 1000) * 1000;
  return new Date(seconds + offsetMsAt(seconds, timeZone));
}

function dateValue(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string' && value !== '') {
    const parsed = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
    return Number.isNaN(parsed.getTime()) ? null : parsed;
  }
  return null;
}

function cellValue(type: ColumnType, value: unknown, timeZone: string): string | number | Date | null {
  switch (type) {
    case 'text':
      return textCell(value);
    case 'integer': {
      const number = numberCell(value);
      return number === null ? null : Math.trunc(number);
    }
    case 'money': {
      const cents = numberCell(value);
      return cents === null ? null : Math.round(cents) / 100;
    }
    case 'date': {
      const date = dateValue(value);
      if (!date) return null;
      // A 'yyyy-MM-dd' is a calendar day already; an instant is the day it was in the zone.
      const day = typeof value === 'string' && value.length === 10 ? date : wallClock(date, timeZone);
      return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate()));
    }
    case 'datetime': {
      const date = dateValue(value);
      return date ? wallClock(date, timeZone) : null;
    }
  }
}

function displayLength(value: string | number | Date | null): number {
  if (value === null) return 0;
  if (typeof value === 'string') return Math.max(...value.split('\n').map((line) => line.length));
  return String(value).length;
}

/** Sheet names: at most 31 characters, none of []:*?/\ (Excel refuses the file otherwise). */
function safeSheetName(name: string): string {
  const cleaned = name
    .replace(/[[\]:*?/\\]/g, ' ')
    .replace(XML_INVALID, '')
    .trim()
    .slice(0, 31);
  return cleaned || 'Sheet1';
}

/**
 * Builds an .xlsx file: a bold, frozen header row with an autofilter, then one typed row per record.
 * Written with exceljs's streaming writer, so memory stays proportional to the file, not to the cells.
 */
export async function buildWorkbook(options: WorkbookOptions): Promise<Buffer> {
  const { columns, rows } = options;
  const timeZone = options.timeZone ?? 'UTC';
  if (columns.length === 0) throw new Error('a workbook needs at least one column');
  if (rows.length > MAX_EXPORT_ROWS) throw new Error(`an export holds at most ${MAX_EXPORT_ROWS} rows`);

  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    output.on('end', resolve);
    output.on('error', reject);
  });

  // Loaded with the first export, not at every start: exceljs is the largest package the server uses.
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: true });
  workbook.creator = 'VetCall';
  const sheet = workbook.addWorksheet(safeSheetName(options.sheetName), {
    views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }],
  });

  const values = rows.map((row) => columns.map((column) => cellValue(column.type, row[column.key], timeZone)));
  sheet.columns = columns.map((column, index) => {
    const limits = DEFAULT_WIDTHS[column.type];
    const longest = values.reduce((max, row) => Math.max(max, displayLength(row[index] ?? null)), 0);
    const fitted = Math.min(limits.max, Math.max(limits.min, longest + 2, column.header.length + 4));
    const numFmt = column.type === 'text' ? undefined : NUMBER_FORMATS[column.type];
    return { key: column.key, width: column.width ?? fitted, ...(numFmt ? { style: { numFmt } } : {}) };
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };

  const header = sheet.addRow(columns.map((column) => textCell(column.header)));
  header.font = { bold: true };
  header.commit();
  for (const row of values) sheet.addRow(row).commit();
  sheet.commit();
  await workbook.commit();
  await finished;
  return Buffer.concat(chunks);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** `yyyymmddhhmmss-<base>.xlsx` (UTC), docs/product-rules.md#api; the base loses characters no file system accepts. */
export function exportFileName(base: string, now: Date): string {
  const stamp =
    pad(now.getUTCFullYear(), 4) +
    pad(now.getUTCMonth() + 1) +
    pad(now.getUTCDate()) +
    pad(now.getUTCHours()) +
    pad(now.getUTCMinutes()) +
    pad(now.getUTCSeconds());
  const cleaned = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\\/:*?"<>|\u0000-\u001F\u007F]+/g, '-')
    .replace(/\s+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return `${stamp}-${cleaned || 'export'}.xlsx`;
}

/** Sends a built workbook as a download that no cache keeps (it holds personal data). */
export function sendWorkbook(reply: FastifyReply, fileName: string, buffer: Buffer) {
  return reply
    .header('content-type', XLSX_CONTENT_TYPE)
    .header('content-disposition', contentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(buffer);
}
