import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildWorkbook, exportFileName, MAX_EXPORT_ROWS, NUMBER_FORMATS, wallClock } from './workbook.ts';

async function open(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  return workbook;
}

const columns = [
  { key: 'id', header: 'ID', type: 'integer' },
  { key: 'name', header: 'Name', type: 'text' },
  { key: 'birth', header: 'Birth', type: 'date' },
  { key: 'at', header: 'At', type: 'datetime' },
  { key: 'price', header: 'Price', type: 'money' },
] as const;

describe('buildWorkbook', () => {
  it('writes a bold, frozen, filtered header and typed cells', async () => {
    const buffer = await buildWorkbook({
      sheetName: 'Appointments',
      columns: [...columns],
      rows: [
        { id: 7, name: 'Ana', birth: '2020-05-17', at: new Date('2026-11-21T09:30:00Z'), price: 2550 },
        { id: 8, name: null, birth: null, at: undefined, price: 0 },
      ],
    });
    const workbook = await open(buffer);
    const sheet = workbook.getWorksheet('Appointments')!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).values).toEqual([undefined, 'ID', 'Name', 'Birth', 'At', 'Price']);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe('A1:E1');

    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe(7);
    expect(row.getCell(2).value).toBe('Ana');
    expect(row.getCell(3).value).toEqual(new Date('2020-05-17T00:00:00Z'));
    expect(row.getCell(3).numFmt).toBe(NUMBER_FORMATS.date);
    expect(row.getCell(4).value).toBeInstanceOf(Date);
    expect(row.getCell(4).value).toEqual(new Date('2026-11-21T09:30:00Z'));
    expect(row.getCell(4).numFmt).toBe(NUMBER_FORMATS.datetime);
    expect(row.getCell(5).value).toBe(25.5);
    expect(row.getCell(5).numFmt).toBe('#,##0.00 "€"');

    const empty = sheet.getRow(3);
    expect(empty.getCell(2).value).toBeNull();
    expect(empty.getCell(3).value).toBeNull();
    expect(empty.getCell(5).value).toBe(0);
  });

  it('shows date-times in the requested zone (Excel dates carry none)', async () => {
    const instant = new Date('2026-07-01T23:30:00Z');
    const buffer = await buildWorkbook({
      sheetName: 'x',
      timeZone: 'Europe/Lisbon',
      columns: [
        { key: 'at', header: 'At', type: 'datetime' },
        { key: 'at', header: 'Day', type: 'date' },
      ],
      rows: [{ at: instant }],
    });
    const row = (await open(buffer)).worksheets[0]!.getRow(2);
    expect(row.getCell(1).value).toEqual(new Date('2026-07-02T00:30:00Z'));
    expect(row.getCell(2).value).toEqual(new Date('2026-07-02T00:00:00Z'));
    expect(wallClock(new Date('2026-01-15T12:00:00Z'), 'America/Sao_Paulo')).toEqual(new Date('2026-01-15T09:00:00Z'));
  });

  it('keeps text as text (no formulas) and drops characters XML cannot carry', async () => {
    const buffer = await buildWorkbook({
      sheetName: 'Odd: [names]?*/\\ that are far too long for Excel',
      columns: [{ key: 'v', header: 'Value', type: 'text' }],
      rows: [{ v: '=HYPERLINK("http://evil.test","x")' }, { v: 'bell\u0007 and nul\u0000' }, { v: 12 }],
    });
    const sheet = (await open(buffer)).worksheets[0]!;
    expect(sheet.name.length).toBeLessThanOrEqual(31);
    expect(sheet.name).not.toMatch(/[[\]:*?/\\]/);
    expect(sheet.getCell('A2').value).toBe('=HYPERLINK("http://evil.test","x")');
    expect(sheet.getCell('A2').type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getCell('A3').value).toBe('bell and nul');
    expect(sheet.getCell('A4').value).toBe('12');
  });

  it('refuses more rows than an export holds', async () => {
    const rows = Array.from({ length: MAX_EXPORT_ROWS + 1 }, (_, id) => ({ id }));
    await expect(
      buildWorkbook({ sheetName: 'x', columns: [{ key: 'id', header: 'ID', type: 'integer' }], rows }),
    ).rejects.toThrow(/at most/);
  });
});

describe('file names', () => {
  it('start with a UTC timestamp yyyymmddhhmmss', () => {
    expect(exportFileName('customers', new Date('2026-03-04T05:06:07.890Z'))).toBe('20260304050607-customers.xlsx');
    expect(exportFileName('veterinários', new Date('2026-12-31T23:59:59Z'))).toBe('20261231235959-veterinários.xlsx');
    expect(exportFileName('../a/b:c*?', new Date('2026-01-01T00:00:00Z'))).toBe('20260101000000-a-b-c.xlsx');
    expect(exportFileName('', new Date('2026-01-01T00:00:00Z'))).toBe('20260101000000-export.xlsx');
  });
});
