import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APPOINTMENT_PAGE_SIZE } from '@vetcall/shared/schemas/appointment';
import { NEXT_CURSOR_HEADER } from '@vetcall/shared/schemas/fields';
import { fixedClock } from '../../clock.ts';
import { buildAppointment, buildCustomer, buildPet } from '../../demo-data/factories.ts';
import { decodeCursor, encodeCursor } from '../../lib/keyset-cursor.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import {
  type AppointmentWorld,
  buildAppointmentWorld,
  type Headers,
  LIST_ITEM_KEYS,
  PASSWORD,
  PINS,
  VET_NOTES,
} from '../../../test/appointment-world.ts';
import { XLSX_CONTENT_TYPE } from '../exports/workbook.ts';
import { checkFilterDates, latestFilterDate, parseMngrecordParam, VET_CUSTOMERS_PAGE_SIZE } from './lists.service.ts';

/** Friday 20 November 2026, 10:00 UTC: the latest filter date is 2026-12-20. */
const NOW = '2026-11-20T10:00:00Z';

interface Page {
  items: { appointment_id: number; schedule: string; vet_user_id: number; appointment_status: string }[];
  next_cursor: string | null;
}

describe('appointment filters and cursors (pure)', () => {
  const now = new Date(NOW);

  it('lets the window reach one month after today, in the reader’s zone, month ends clamped', () => {
    expect(latestFilterDate(now, 'UTC')).toBe('2026-12-20');
    // 20:00 on 31 January in Lisbon; already 1 February in Tokyo.
    const late = new Date('2027-01-31T20:00:00Z');
    expect(latestFilterDate(late, 'Europe/Lisbon')).toBe('2027-02-28');
    expect(latestFilterDate(late, 'Asia/Tokyo')).toBe('2027-03-01');
  });

  it('parses <from>_<to>_<vet|all> and refuses anything else with 400 on param', () => {
    expect(parseMngrecordParam('1950-01-01_2026-12-20_all', now, 'UTC')).toEqual({
      from: '1950-01-01',
      to: '2026-12-20',
      vetUserId: undefined,
      timeZone: 'UTC',
    });
    expect(parseMngrecordParam('2026-11-05_2026-11-05_42', now, 'UTC').vetUserId).toBe(42);
    const refusals: [string, string][] = [
      ['1949-12-31_2026-11-20_all', 'too_small'],
      ['2026-11-01_2026-12-21_all', 'too_big'],
      ['2026-11-10_2026-11-09_all', 'too_small'],
      ['2026-02-30_2026-11-09_all', 'invalid_format'],
      ['2026-11-01_2026-11-09', 'invalid_format'],
      ['2026-11-01_2026-11-09_rui', 'invalid_format'],
      ['2026-11-01_2026-11-09_all_x', 'invalid_format'],
      ['', 'invalid_format'],
    ];
    for (const [param, code] of refusals) {
      expect(() => parseMngrecordParam(param, now, 'UTC'), param).toThrow(
        expect.objectContaining({ statusCode: 400, fields: { param: code } }),
      );
    }
  });

  it('checks optional from/to windows field by field', () => {
    expect(() => checkFilterDates({}, now, 'UTC')).not.toThrow();
    expect(() => checkFilterDates({ from: '1950-01-01' }, now, 'UTC')).not.toThrow();
    expect(() => checkFilterDates({ from: '1900-01-01', to: '2030-01-01' }, now, 'UTC')).toThrow(
      expect.objectContaining({ fields: { from: 'too_small', to: 'too_big' } }),
    );
  });

  it('round-trips cursors and refuses forged ones', () => {
    const cursor = { at: '2026-11-20T11:00:00.000Z', id: 7 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    for (const forged of ['', 'abc', Buffer.from('[1,2]').toString('base64url'), encodeCursor({ ...cursor, id: -1 })]) {
      expect(() => decodeCursor(forged), forged).toThrow(
        expect.objectContaining({ fields: { cursor: 'invalid_format' } }),
      );
    }
  });
});

describe('GET /api/appointments/mngrecord/{param}', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });
  const list = async (param: string, headers = w.headers.manager, query = '') => {
    const response = await get(`/api/appointments/mngrecord/${param}${query}`, headers);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<Page>();
  };

  /** `count` appointments of Ana's Bobi, alternately Rui's and Sara's, three per half hour from `start`. */
  const bulkInsert = (count: number, start = '2026-11-01T08:00:00Z') =>
    t.db.execute(sql`
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status, price_cents)
      select 'bulk-' || g, ${w.ana.user.id}::integer, ${w.bobi.id}::integer,
             case when g % 2 = 0 then ${w.rui.user.id}::integer else ${w.sara.user.id}::integer end,
             'Bulk', ${start}::timestamptz + (g / 3) * interval '30 minutes', 'TK_Completed', 2500
      from generate_series(1, ${count}::integer) g`);

  it('lists the window for managers, each row with exactly the list keys and nothing private', async () => {
    const page = await list('2026-11-01_2026-11-30_all');
    expect(page.next_cursor).toBeNull();
    expect(page.items.map((item) => item.appointment_id)).toEqual([w.confirmed.id, w.requested.id]);
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    expect(page.items[0]).toEqual({
      appointment_id: w.confirmed.id,
      schedule: '2026-11-20T11:00:00.000Z',
      customer_user_id: w.ana.user.id,
      customer_name: 'Ana Silva',
      pet_id: w.bobi.id,
      pet_name: 'Bobi',
      vet_user_id: w.rui.user.id,
      vet_name: 'Rui Costa',
      appointment_status_key: 'TK_Confirmed',
      appointment_status: 'Confirmed',
      status_date: '2026-11-18T09:00:00.000Z',
      price: 2125,
    });
    const body = JSON.stringify(page);
    for (const secret of [VET_NOTES, PINS.customer, PINS.vet, 'Limping']) expect(body).not.toContain(secret);
  });

  it('filters by vet user id, and by days in the query’s zone', async () => {
    expect((await list(`2026-11-01_2026-11-30_${w.sara.user.id}`)).items.map((i) => i.appointment_id)).toEqual([
      w.requested.id,
    ]);
    expect((await list('2026-11-01_2026-11-30_999999')).items).toEqual([]);
    // 23:30 on the 20th in São Paulo is the 21st in UTC.
    const late = await buildAppointment(
      t.db,
      { customerUserId: w.ana.user.id, petId: w.bobi.id, vetUserId: w.rui.user.id },
      { schedule: new Date('2026-11-21T02:30:00Z') },
    );
    const ids = async (param: string, query = '') =>
      (await list(param, undefined, query)).items.map((i) => i.appointment_id);
    expect(await ids('2026-11-20_2026-11-20_all')).toEqual([w.confirmed.id]);
    expect(await ids('2026-11-21_2026-11-21_all')).toEqual([late.id]);
    expect(await ids('2026-11-20_2026-11-20_all', '?tz=America/Sao_Paulo')).toEqual([w.confirmed.id, late.id]);
    // The upper bound is inclusive: the 25th’s appointment is in a window ending on the 25th.
    expect(await ids('2026-11-25_2026-11-25_all')).toEqual([w.requested.id]);
  });

  it('accepts the edges of the window (1950-01-01, today + 1 month) and refuses one day past them', async () => {
    expect((await list('1950-01-01_2026-12-20_all')).items).toHaveLength(2);
    for (const param of ['1949-12-31_2026-12-20_all', '1950-01-01_2026-12-21_all', '2026-11-21_2026-11-20_all']) {
      const response = await get(`/api/appointments/mngrecord/${param}`, w.headers.manager);
      expect([param, response.statusCode, response.json().error]).toEqual([param, 400, 'validation_failed']);
      expect(Object.keys(response.json().fields)).toEqual(['param']);
    }
    // On Kiritimati (UTC+14) it is already the 21st, so the 21st of next month is allowed there.
    expect((await list('2026-11-01_2026-12-21_all', undefined, '?tz=Pacific/Kiritimati')).items).toHaveLength(2);
    const badZone = await get('/api/appointments/mngrecord/2026-11-01_2026-11-30_all?tz=Mars/Base', w.headers.manager);
    expect(badZone.json().fields).toEqual({ tz: 'invalid_value' });
  });

  it('walks keyset pages in (schedule, id) order, ties included, without gaps or repeats', async () => {
    await bulkInsert(450);
    const seen: Page['items'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?cursor=${cursor}` : '';
      const page = await list('2026-11-01_2026-11-30_all', undefined, query);
      expect(page.items.length).toBeLessThanOrEqual(APPOINTMENT_PAGE_SIZE);
      seen.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(452);
    expect(new Set(seen.map((item) => item.appointment_id)).size).toBe(452);
    const order = seen.map((item) => [item.schedule, item.appointment_id] as const);
    const sorted = [...order].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
    expect(order).toEqual(sorted);

    // A vet’s filter pages the same way.
    let ruiCount = 0;
    cursor = null;
    do {
      const query: string = cursor ? `?cursor=${cursor}` : '';
      const page = await list(`2026-11-01_2026-11-30_${w.rui.user.id}`, undefined, query);
      expect(page.items.every((item) => item.vet_user_id === w.rui.user.id)).toBe(true);
      ruiCount += page.items.length;
      cursor = page.next_cursor;
    } while (cursor);
    expect(ruiCount).toBe(225 + 1);
  });

  it('ends with next_cursor null exactly at a full last page', async () => {
    await bulkInsert(APPOINTMENT_PAGE_SIZE - 2);
    const first = await list('2026-11-01_2026-11-30_all');
    expect([first.items.length, first.next_cursor]).toEqual([APPOINTMENT_PAGE_SIZE, null]);
  });

  it('refuses a forged cursor with 400', async () => {
    const response = await get(
      '/api/appointments/mngrecord/2026-11-01_2026-11-30_all?cursor=bm9wZQ',
      w.headers.manager,
    );
    expect([response.statusCode, response.json().fields]).toEqual([400, { cursor: 'invalid_format' }]);
  });

  it.each([
    ['customer', 403],
    ['vet', 403],
    ['anonymous', 401],
  ] as const)('refuses %s with %i', async (role, status) => {
    expect((await get('/api/appointments/mngrecord/2026-11-01_2026-11-30_all', w.headers[role])).statusCode).toBe(
      status,
    );
  });

  it('localizes statuses in ?lang, else in the manager’s language', async () => {
    expect(
      (await list('2026-11-01_2026-11-30_all', undefined, '?lang=pt-BR')).items.map((i) => i.appointment_status),
    ).toEqual(['Confirmada', 'Solicitada']);
  });
});

describe('GET /api/vets/appointments/{vet_id} and /api/vets/customers/{vet_id}', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  it('lists the vet’s own appointments for the vet and for managers, with exactly the list keys', async () => {
    for (const headers of [w.headers.vet, w.headers.manager]) {
      const response = await get(`/api/vets/appointments/${w.rui.vet.id}`, headers);
      expect(response.statusCode).toBe(200);
      const page = response.json<Page>();
      expect([page.items.map((i) => i.appointment_id), page.next_cursor]).toEqual([[w.confirmed.id], null]);
      expect(Object.keys(page.items[0]!).sort()).toEqual(LIST_ITEM_KEYS);
      expect(response.body).not.toContain(VET_NOTES);
      expect(response.body).not.toContain(PINS.vet);
    }
  });

  it.each([
    ['otherVet', 404],
    ['customer', 403],
    ['anonymous', 401],
  ] as const)('refuses %s with %i', async (role, status) => {
    expect((await get(`/api/vets/appointments/${w.rui.vet.id}`, w.headers[role])).statusCode).toBe(status);
    expect((await get(`/api/vets/customers/${w.rui.vet.id}`, w.headers[role])).statusCode).toBe(status);
  });

  it('answers 404 for a vet id that does not exist, and for a vet’s user id mistaken for its vet id', async () => {
    expect((await get('/api/vets/appointments/99999', w.headers.manager)).statusCode).toBe(404);
    // Rui's user id is not a vets.id of Rui's (staff were created first, so the numbers differ).
    const byUserId = await get(`/api/vets/appointments/${w.rui.user.id}`, w.headers.vet);
    expect(byUserId.statusCode).toBe(404);
  });

  it('filters by from/to (inclusive, in tz) and validates them', async () => {
    const later = await buildAppointment(
      t.db,
      { customerUserId: w.ana.user.id, petId: w.bobi.id, vetUserId: w.rui.user.id },
      { schedule: new Date('2026-12-01T10:00:00Z') },
    );
    const ids = async (query: string) =>
      (await get(`/api/vets/appointments/${w.rui.vet.id}${query}`, w.headers.vet))
        .json<Page>()
        .items.map((item) => item.appointment_id);
    expect(await ids('?from=2026-11-21')).toEqual([later.id]);
    expect(await ids('?to=2026-11-30')).toEqual([w.confirmed.id]);
    expect(await ids('?from=2026-11-20&to=2026-12-01')).toEqual([w.confirmed.id, later.id]);
    const invalid = await get(`/api/vets/appointments/${w.rui.vet.id}?from=1949-12-31&to=2026-12-21`, w.headers.vet);
    expect([invalid.statusCode, invalid.json().fields]).toEqual([400, { from: 'too_small', to: 'too_big' }]);
    const malformed = await get(`/api/vets/appointments/${w.rui.vet.id}?from=20261120`, w.headers.vet);
    expect([malformed.statusCode, malformed.json().fields]).toEqual([400, { from: 'invalid_format' }]);
  });

  it('pages a vet’s list with the cursor', async () => {
    await t.db.execute(sql`
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status)
      select 'bulk-' || g, ${w.ana.user.id}::integer, ${w.bobi.id}::integer, ${w.rui.user.id}::integer, 'Bulk',
             '2026-10-01T08:00:00Z'::timestamptz + g * interval '1 hour', 'TK_Completed'
      from generate_series(1, 250) g`);
    const first = (await get(`/api/vets/appointments/${w.rui.vet.id}`, w.headers.vet)).json<Page>();
    expect(first.items).toHaveLength(APPOINTMENT_PAGE_SIZE);
    const second = (
      await get(`/api/vets/appointments/${w.rui.vet.id}?cursor=${first.next_cursor}`, w.headers.vet)
    ).json<Page>();
    expect([second.items.length, second.next_cursor]).toEqual([51, null]);
    expect(second.items.at(-1)!.appointment_id).toBe(w.confirmed.id);
  });

  it('lists the customers with appointments with the vet, once each, by name, exactly the customer keys', async () => {
    const zoe = await buildCustomer(t.db, { email: 'zoe@example.test', name: 'Abel Zoe', password: PASSWORD });
    const zoePet = await buildPet(t.db, zoe.customer.id);
    for (let i = 0; i < 2; i++) {
      await buildAppointment(t.db, { customerUserId: zoe.user.id, petId: zoePet.id, vetUserId: w.rui.user.id });
    }
    for (const headers of [w.headers.vet, w.headers.manager]) {
      const response = await get(`/api/vets/customers/${w.rui.vet.id}`, headers);
      expect(response.statusCode).toBe(200);
      const body = response.json<Record<string, unknown>[]>();
      expect(body.map((customer) => customer.name)).toEqual(['Abel Zoe', 'Ana Silva']);
      expect(body[1]).toEqual({
        user_id: w.ana.user.id,
        name: 'Ana Silva',
        email: 'ana@example.test',
        phone: '912345678',
        address: 'Rua das Flores 1',
        tax_id: '501234567',
      });
      for (const customer of body) {
        expect(Object.keys(customer).sort()).toEqual(['address', 'email', 'name', 'phone', 'tax_id', 'user_id']);
      }
    }
    // Bruno is Sara's customer only.
    const saras = await get(`/api/vets/customers/${w.sara.vet.id}`, w.headers.otherVet);
    expect(saras.json().map((customer: { name: string }) => customer.name)).toEqual(['Bruno Reis']);
  });

  it('pages a vet’s customers by name with X-Next-Cursor, ties by id, the answer still a bare array', async () => {
    // 250 more of Rui's customers, named in pairs (two of each name) so the order ties on names.
    await t.db.execute(sql`
      with made as (
        insert into users (type, name, email, password_hash)
        select 'customer', 'Bulk ' || lpad((g / 2)::text, 3, '0'), 'bulk' || g || '@example.test', 'x'
        from generate_series(1, 250) g
        returning id)
      insert into customers (user_id) select id from made`);
    await t.db.execute(sql`
      with bulk_pets as (
        insert into pets (customer_id, name, species, gender, birth, fertile_status, weight)
        select c.id, 'Pet', 'Dog', 'F', '2020-01-01', 'intact', 10
        from customers c join users u on u.id = c.user_id where u.email like 'bulk%'
        returning id, customer_id)
      insert into appointments (hash, customer_user_id, pet_id, vet_user_id, description, schedule, status)
      select 'bulk-' || p.id || '-' || k, c.user_id, p.id, ${w.rui.user.id}::integer, 'Bulk',
             '2026-10-01T08:00:00Z'::timestamptz + (p.id * 2 + k) * interval '1 hour', 'TK_Completed'
      from bulk_pets p join customers c on c.id = p.customer_id, generate_series(1, 2) k`);
    for (const headers of [w.headers.vet, w.headers.manager]) {
      const seen: { user_id: number; name: string }[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const response = await get(`/api/vets/customers/${w.rui.vet.id}${cursor ? `?cursor=${cursor}` : ''}`, headers);
        expect(response.statusCode, response.body).toBe(200);
        const body = response.json<{ user_id: number; name: string }[]>();
        expect(Array.isArray(body)).toBe(true);
        expect(body.length).toBeLessThanOrEqual(VET_CUSTOMERS_PAGE_SIZE);
        seen.push(...body);
        cursor = response.headers[NEXT_CURSOR_HEADER] as string | undefined;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(2);
      // The 250 and Ana, each once although each has two appointments with Rui.
      expect(seen).toHaveLength(251);
      expect(new Set(seen.map((customer) => customer.user_id)).size).toBe(251);
      const order = seen.map((customer) => [customer.name, customer.user_id] as const);
      const byName = [...order].sort((a, b) => (a[0] === b[0] ? a[1] - b[1] : a[0] < b[0] ? -1 : 1));
      expect(order).toEqual(byName);
    }
  });

  it('refuses a forged customers cursor with 400 cursor invalid_format, and other vets as before', async () => {
    const forged = await get(`/api/vets/customers/${w.rui.vet.id}?cursor=bm9wZQ`, w.headers.vet);
    expect([forged.statusCode, forged.json().fields]).toEqual([400, { cursor: 'invalid_format' }]);
    const valid = Buffer.from(JSON.stringify(['Ana Silva', w.ana.user.id])).toString('base64url');
    const afterAna = await get(`/api/vets/customers/${w.rui.vet.id}?cursor=${valid}`, w.headers.vet);
    expect([afterAna.statusCode, afterAna.json(), afterAna.headers[NEXT_CURSOR_HEADER]]).toEqual([200, [], undefined]);
    expect((await get(`/api/vets/customers/${w.rui.vet.id}?cursor=${valid}`, w.headers.otherVet)).statusCode).toBe(404);
  });
});

describe('GET /api/exports/appointments', () => {
  let t: TestApp;
  let w: AppointmentWorld;
  beforeEach(async () => {
    t = await buildTestApp({ clock: fixedClock(NOW) });
    w = await buildAppointmentWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  const get = (url: string, headers: Headers) => t.app.inject({ method: 'GET', url, headers });

  async function sheetOf(body: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: sheet.name, rows };
  }

  it('exports the filtered list as a timestamped workbook in the manager’s language and zone', async () => {
    const response = await get(
      '/api/exports/appointments?param=2026-11-01_2026-11-30_all&lang=pt&tz=Europe/Lisbon',
      w.headers.manager,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="20261120100000-consultas.xlsx"; filename*=UTF-8\'\'20261120100000-consultas.xlsx',
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-export-truncated']).toBeUndefined();
    const { name, rows } = await sheetOf(response.rawPayload);
    expect(name).toBe('Consultas');
    expect(rows[0]).toEqual([
      'ID',
      'Data e hora',
      'Cliente',
      'Animal',
      'Veterinário',
      'Estado',
      'Data do estado',
      'Preço',
    ]);
    expect(rows.slice(1)).toEqual([
      [
        w.confirmed.id,
        new Date('2026-11-20T11:00:00Z'),
        'Ana Silva',
        'Bobi',
        'Rui Costa',
        'Confirmada',
        new Date('2026-11-18T09:00:00Z'),
        21.25,
      ],
      [
        w.requested.id,
        new Date('2026-11-25T13:00:00Z'),
        'Bruno Reis',
        'Tareco',
        'Sara Lima',
        'Pedida',
        new Date('2026-11-18T10:00:00Z'),
        25,
      ],
    ]);
    expect(response.rawPayload.toString('latin1')).not.toContain('Secret vet notes');
  });

  it('filters by vet like the list', async () => {
    const response = await get(
      `/api/exports/appointments?param=2026-11-01_2026-11-30_${w.sara.user.id}&lang=en`,
      w.headers.manager,
    );
    const { rows } = await sheetOf(response.rawPayload);
    expect(rows.slice(1).map((row) => row[0])).toEqual([w.requested.id]);
  });

  it('refuses a bad filter with 400 and anyone but managers', async () => {
    const bad = await get('/api/exports/appointments?param=2026-11-01_2027-01-01_all', w.headers.manager);
    expect([bad.statusCode, bad.json().fields]).toEqual([400, { param: 'too_big' }]);
    const missing = await get('/api/exports/appointments', w.headers.manager);
    expect(missing.statusCode).toBe(400);
    for (const role of ['customer', 'vet'] as const) {
      const response = await get('/api/exports/appointments?param=2026-11-01_2026-11-30_all', w.headers[role]);
      expect(response.statusCode).toBe(403);
    }
  });
});
