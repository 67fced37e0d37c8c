import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixedClock } from '../../clock.ts';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { availabilityProfiles, users } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { XLSX_CONTENT_TYPE } from './workbook.ts';

const PASSWORD = 'secret-pass';
const NOW = '2026-11-21T09:30:15Z';

async function openWorkbook(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  expect(workbook.worksheets).toHaveLength(1);
  return workbook.worksheets[0]!;
}

/** The rows of a sheet as arrays (ExcelJS rows are 1-based; the leading hole is dropped). */
function rowsOf(sheet: ExcelJS.Worksheet) {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe('GET /api/exports/{customers|vets|managers}', () => {
  let t: TestApp;
  let manager: Awaited<ReturnType<typeof buildManager>>;
  let ana: Awaited<ReturnType<typeof buildCustomer>>;
  let rui: Awaited<ReturnType<typeof buildVet>>;
  let gone: Awaited<ReturnType<typeof buildVet>>;

  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta Lopes' });
    rui = await buildVet(t.db, {
      email: 'rui@clinic.test',
      password: PASSWORD,
      name: 'Rui Costa',
      phone: '213000111',
      specialty: 'Dermatology',
      discount: 15,
    });
    gone = await buildVet(t.db, { email: 'gone@clinic.test', name: 'Old Vet', active: false });
    ana = await buildCustomer(t.db, {
      email: 'ana@clinic.test',
      password: PASSWORD,
      name: 'Ana Silva',
      phone: '912345678',
      address: 'Rua Augusta 1',
      taxId: '123456789',
      postalCode: '1100-048',
      city: 'Lisboa',
      state: 'Lisboa',
      country: 'PT',
    });
    await buildCustomer(t.db, { email: 'bob@clinic.test', name: 'Bob', country: 'US', postalCode: '10001' });
    await t.db
      .update(users)
      .set({ createdAt: new Date('2026-03-02T14:05:00Z') })
      .where(eq(users.id, ana.user.id));
    await t.db
      .update(users)
      .set({ createdAt: new Date('2025-01-10T08:00:00Z') })
      .where(eq(users.id, rui.user.id));
  });
  afterEach(async () => {
    await t.close();
  });

  async function download(path: string, as = 'boss@clinic.test') {
    const { headers } = await t.loginAs(as, PASSWORD);
    return t.app.inject({ method: 'GET', url: `/api/exports${path}`, headers });
  }

  it('exports customers with English headers and typed cells', async () => {
    const response = await download('/customers?lang=en');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="20261121093015-customers.xlsx"; filename*=UTF-8''20261121093015-customers.xlsx`,
    );

    const sheet = await openWorkbook(response.rawPayload);
    expect(sheet.name).toBe('Customers');
    const [header, first, second, ...rest] = rowsOf(sheet);
    expect(header).toEqual([
      'ID',
      'Name',
      'Email',
      'Phone',
      'Address',
      'Postal code',
      'City',
      'State / district',
      'Country',
      'VAT number',
      'Registered at',
    ]);
    expect(first).toEqual([
      ana.user.id,
      'Ana Silva',
      'ana@clinic.test',
      '912345678',
      'Rua Augusta 1',
      '1100-048',
      'Lisboa',
      'Lisboa',
      'Portugal',
      '123456789',
      new Date('2026-03-02T14:05:00Z'),
    ]);
    expect(second![1]).toBe('Bob');
    expect(second![8]).toBe('United States');
    expect(rest).toEqual([]);

    const registered = sheet.getRow(2).getCell(11);
    expect(registered.value).toBeInstanceOf(Date);
    expect(registered.type).toBe(ExcelJS.ValueType.Date);
    expect(registered.numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
  });

  it('localizes headers, texts and the file name in pt and pt-BR', async () => {
    const pt = await download('/customers?lang=pt');
    expect(pt.headers['content-disposition']).toContain('filename="20261121093015-clientes.xlsx"');
    const ptSheet = await openWorkbook(pt.rawPayload);
    expect(ptSheet.name).toBe('Clientes');
    expect(rowsOf(ptSheet)[0]).toEqual([
      'ID',
      'Nome',
      'Email',
      'Telefone',
      'Morada',
      'Código postal',
      'Localidade',
      'Distrito',
      'País',
      'NIF',
      'Registado em',
    ]);

    const brazil = await download('/vets?lang=pt-BR');
    expect(brazil.headers['content-disposition']).toBe(
      `attachment; filename="20261121093015-veterinarios.xlsx"; filename*=UTF-8''20261121093015-veterinarios.xlsx`,
    );
    const brSheet = await openWorkbook(brazil.rawPayload);
    expect(rowsOf(brSheet)[0]).toEqual([
      'ID',
      'Nome',
      'E-mail',
      'Telefone',
      'Especialidade',
      'Desconto (%)',
      'Ativo',
      'Criado em',
    ]);
    expect(rowsOf(brSheet)[1]![6]).toBe('Sim');
  });

  it("uses the manager's own language by default", async () => {
    // Factories create people with locale pt.
    const response = await download('/managers');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('-gestores.xlsx');
    expect(rowsOf(await openWorkbook(response.rawPayload))[0]).toEqual(['ID', 'Nome', 'Email', 'Ativo', 'Criado em']);
  });

  it('exports vets, removed ones included, with the discount as a number', async () => {
    const sheet = await openWorkbook((await download('/vets?lang=en')).rawPayload);
    const rows = rowsOf(sheet);
    expect(rows[0]).toEqual(['ID', 'Name', 'Email', 'Phone', 'Specialty', 'Discount (%)', 'Active', 'Created at']);
    expect(rows.slice(1)).toEqual([
      [
        rui.user.id,
        'Rui Costa',
        'rui@clinic.test',
        '213000111',
        'Dermatology',
        15,
        'Yes',
        new Date('2025-01-10T08:00:00Z'),
      ],
      [gone.user.id, 'Old Vet', gone.user.email, '213456789', 'General practice', 0, 'No', expect.any(Date)],
    ]);
  });

  it('exports managers', async () => {
    await buildManager(t.db, { email: 'second@clinic.test', name: 'Second' });
    const rows = rowsOf(await openWorkbook((await download('/managers?lang=en')).rawPayload));
    expect(rows.map((row) => row.slice(0, 4))).toEqual([
      ['ID', 'Name', 'Email', 'Active'],
      [manager.user.id, 'Marta Lopes', 'boss@clinic.test', 'Yes'],
      [expect.any(Number), 'Second', 'second@clinic.test', 'Yes'],
    ]);
    expect(rows[1]![4]).toBeInstanceOf(Date);
  });

  it('shows date-times in the zone the browser names', async () => {
    const sheet = await openWorkbook((await download('/customers?lang=en&tz=Europe/Lisbon')).rawPayload);
    // 14:05 UTC on 2 March is 14:05 in Lisbon (winter time); July would be one hour later.
    expect(sheet.getRow(2).getCell(11).value).toEqual(new Date('2026-03-02T14:05:00Z'));
    const saoPaulo = await openWorkbook((await download('/customers?lang=en&tz=America/Sao_Paulo')).rawPayload);
    expect(saoPaulo.getRow(2).getCell(11).value).toEqual(new Date('2026-03-02T11:05:00Z'));
  });

  it.each(['/customers', '/vets', '/managers', '/vets-availability'])('%s is for managers only', async (path) => {
    expect((await download(path, 'ana@clinic.test')).statusCode).toBe(403);
    expect((await download(path, 'rui@clinic.test')).statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/exports${path}` });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('unauthorized');
  });

  it('answers 400 for an unknown language or time zone', async () => {
    const lang = await download('/customers?lang=fr');
    expect(lang.statusCode).toBe(400);
    expect(lang.json()).toMatchObject({ error: 'validation_failed', fields: { lang: 'invalid_value' } });
    const tz = await download('/customers?tz=Mars/Olympus');
    expect(tz.statusCode).toBe(400);
    expect(tz.json()).toMatchObject({ error: 'validation_failed', fields: { tz: 'invalid_value' } });
  });

  it('exports vets availability: one row per vet and working date of the ten weeks, in the language asked', async () => {
    await t.db
      .update(availabilityProfiles)
      .set({
        daySchedules: [{ dayOfWeek: 1, workingIntervals: [{ start: '09:00', end: '13:00' }] }],
        // Monday 23 November is a day off.
        availabilityIntervals: [{ dateStartInclusive: '2026-11-23', hours: [] }],
      })
      .where(eq(availabilityProfiles.id, rui.profile.id));
    const response = await download('/vets-availability?lang=pt');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['content-disposition']).toContain('20261121093015-');
    const rows = rowsOf(await openWorkbook(response.rawPayload));
    // Ten Mondays from Monday 16 November 2026 (the week of today, a Saturday) but the day off.
    expect(rows).toHaveLength(1 + 9);
    expect(rows[1]).toStrictEqual([new Date('2026-11-16T00:00:00Z'), 'Rui Costa', '09:00\u201313:00', 'Europe/Lisbon']);
    expect(rows[2]![0]).toEqual(new Date('2026-11-30T00:00:00Z'));
    expect(rows.at(-1)![0]).toEqual(new Date('2027-01-18T00:00:00Z'));
  });
});
