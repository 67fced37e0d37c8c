import ExcelJS from 'exceljs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE, type AuditPage } from '@vetcall/shared/schemas/audit';
import { fixedClock } from '../../clock.ts';
import { recordAudit } from '../../db/audit-log.ts';
import { auditEvents, products } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { type Headers, oneOfEachRole, type Role, ROLE_PASSWORD as PASSWORD } from '../../../test/one-of-each-role.ts';
import { XLSX_CONTENT_TYPE } from '../exports/workbook.ts';

const WRONG_PASSWORD = 'not-the-password-7Q';
// 10:00 in Lisbon (UTC+0 in November), the clinic's default time zone.
const NOW = '2026-11-20T10:00:00.000Z';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';

describe('the audit log (docs/audit-log.md: GET /api/audit, GET /api/audit/export)', () => {
  let t: TestApp;
  let clock: ReturnType<typeof fixedClock>;
  let headers: Record<Role, Headers>;
  let manager: Awaited<ReturnType<typeof oneOfEachRole>>['manager'];

  beforeEach(async () => {
    clock = fixedClock(NOW);
    t = await buildTestApp({ clock, env: { CLINIC_TIME_ZONE: 'America/Sao_Paulo' } });
    ({ manager, headers } = await oneOfEachRole(t));
  });
  afterEach(async () => {
    await t.close();
  });

  const list = (query: Record<string, string> = {}, as: Headers = headers.manager) =>
    t.app.inject({ method: 'GET', url: `/api/audit?${new URLSearchParams(query).toString()}`, headers: as });
  const page = async (query: Record<string, string> = {}) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AuditPage>();
  };

  it.each([
    ['none', 401, 'unauthorized'],
    ['customer', 403, 'forbidden'],
    ['vet', 403, 'forbidden'],
  ] as const)('refuses %s (%i) for the list and the export', async (role, status, code) => {
    for (const url of ['/api/audit', '/api/audit/export']) {
      const response = await t.app.inject({ method: 'GET', url, headers: headers[role] });
      expect(response.statusCode, url).toBe(status);
      expect(response.json().error).toBe(code);
    }
  });

  it('records logins and failed logins with where they came from, and never the password typed', async () => {
    const login = (email: string, password: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/login/',
        payload: { email, password },
        headers: { 'user-agent': BROWSER },
        remoteAddress: '203.0.113.9',
      });
    expect((await login('nobody@clinic.test', WRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login('ana@clinic.test', WRONG_PASSWORD)).statusCode).toBe(401);
    expect((await login('ana@clinic.test', PASSWORD)).statusCode).toBe(200);

    const { items } = await page({ actor: 'NOBODY@clinic' });
    expect(items).toEqual([
      expect.objectContaining({
        action: 'auth.login_failed',
        actor_user_id: null,
        actor_role: null,
        actor_email: 'nobody@clinic.test',
        ip: '203.0.113.9',
        user_agent: BROWSER,
        details: { reason: 'unknown_email' },
        occurred_at: NOW,
      }),
    ]);
    const ana = await page({ actor: 'ana@', action: 'auth.' });
    // The clock stands still: newest first is the highest id first, down to the login of beforeEach.
    expect(ana.items.map((event) => [event.action, event.actor_role, event.details])).toEqual([
      ['auth.login', 'customer', {}],
      ['auth.login_failed', null, { reason: 'wrong_password' }],
      ['auth.login', 'customer', {}],
    ]);
    const everything = JSON.stringify(await t.db.select().from(auditEvents));
    expect(everything).not.toContain(WRONG_PASSWORD);
    expect(everything).not.toContain(PASSWORD);
  });

  it('records password reset requests, for known and unknown emails alike, never the link', async () => {
    for (const email of ['ana@clinic.test', 'ghost@clinic.test']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/login/sendpasswordresetemail/en',
        payload: { email },
      });
      expect(response.statusCode).toBe(200);
    }
    const { items } = await page({ action: 'auth.password_reset_requested' });
    expect(items.map((event) => [event.actor_email, event.actor_user_id, event.subject_id, event.details])).toEqual([
      ['ghost@clinic.test', null, null, { sent: false }],
      ['ana@clinic.test', null, expect.any(Number), { sent: true }],
    ]);
    expect(JSON.stringify(items)).not.toContain('token');
  });

  it('records a price change with its actor, from where, the old and the new price, in the change’s transaction', async () => {
    const [product] = await t.db
      .insert(products)
      .values({ designation: { en: 'Video', pt: 'Vídeo', 'pt-BR': 'Vídeo' }, priceCents: 2500 })
      .returning();
    const change = (price: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/products/price/${product!.id}`,
        payload: { price },
        headers: { ...headers.manager, 'user-agent': BROWSER },
        remoteAddress: '203.0.113.10',
      });
    expect((await change(30)).statusCode).toBe(200);
    // The same price again changes nothing, and records nothing.
    expect((await change(30)).statusCode).toBe(200);
    expect((await change(-1)).statusCode).toBe(400);

    const { items } = await page({ action: 'product.price_changed' });
    expect(items).toEqual([
      expect.objectContaining({
        actor_user_id: manager.user.id,
        actor_role: 'manager',
        actor_email: 'boss@clinic.test',
        subject_type: 'product',
        subject_id: product!.id,
        details: { old_price_cents: 2500, new_price_cents: 3000 },
        // Where this request came from, though the session's actor is shared by all its requests.
        ip: '203.0.113.10',
        user_agent: BROWSER,
      }),
    ]);
  });

  it('records account and access-code changes by who made them, with field names and never the code', async () => {
    const as = { headers: headers.manager };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/users/vet',
      ...as,
      payload: {
        name: 'Dr. Nova',
        email: 'nova@clinic.test',
        phone: '+351 911 222 333',
        specialty: 'Exotic animals',
        password: 'a-long-vet-password-1',
        confirmation: 'a-long-vet-password-1',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const vetId = created.json<{ user_id: number }>().user_id;
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/users/manager/${manager.user.id}`,
      ...as,
      payload: { name: 'Boss Renamed', email: 'boss@clinic.test' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/users/${vetId}`, ...as })).statusCode).toBe(200);
    const code = await t.app.inject({
      method: 'POST',
      url: '/api/appointmentsaccesscodes',
      ...as,
      payload: { code: 'SECRET-SPRING', valid_from: '2026-11-01', valid_to: '2027-03-31', included: true },
    });
    expect(code.statusCode, code.body).toBe(201);
    const codeId = code.json<{ access_code_id: number }>().access_code_id;
    const disabled = await t.app.inject({
      method: 'PUT',
      url: `/api/appointmentsaccesscodes/${codeId}/disable`,
      ...as,
    });
    expect(disabled.statusCode, disabled.body).toBe(200);

    const account = await page({ action: 'account.' });
    expect(account.items.map((event) => [event.action, event.subject_id, event.details])).toEqual([
      ['account.deactivated', vetId, { type: 'vet' }],
      ['account.updated', manager.user.id, { fields: ['name'] }],
      ['account.created', vetId, { type: 'vet' }],
    ]);
    expect(account.items.every((event) => event.actor_user_id === manager.user.id)).toBe(true);
    const codes = await page({ action: 'access_code.' });
    expect(codes.items.map((event) => [event.action, event.subject_id, event.details])).toEqual([
      ['access_code.updated', codeId, { disabled: true }],
      ['access_code.created', codeId, { valid_from: '2026-11-01', valid_to: '2027-03-31', included: true }],
    ]);
    expect(JSON.stringify(await t.db.select().from(auditEvents))).not.toContain('SECRET-SPRING');
    expect(JSON.stringify(await t.db.select().from(auditEvents))).not.toContain('a-long-vet-password-1');
  });

  it('filters by days of the clinic’s time zone, both included', async () => {
    // 02:30 UTC on the 21st is still the 20th in São Paulo (UTC-3); 03:30 UTC is the 21st there.
    for (const at of ['2026-11-19T23:00:00Z', '2026-11-21T02:30:00Z', '2026-11-21T03:30:00Z']) {
      await recordAudit(t.db, { actor: null, action: 'export.vets', at: new Date(at) });
    }
    const on20th = await page({ action: 'export.vets', from: '2026-11-20', to: '2026-11-20' });
    expect(on20th.items.map((event) => event.occurred_at)).toEqual(['2026-11-21T02:30:00.000Z']);
    const from21st = await page({ action: 'export.vets', from: '2026-11-21' });
    expect(from21st.items.map((event) => event.occurred_at)).toEqual(['2026-11-21T03:30:00.000Z']);
    const to19th = await page({ action: 'export.vets', to: '2026-11-19' });
    expect(to19th.items.map((event) => event.occurred_at)).toEqual(['2026-11-19T23:00:00.000Z']);
  });

  it('pages newest first by keyset, every event once, ties on the instant broken by id', async () => {
    const total = AUDIT_PAGE_SIZE + 30;
    for (let index = 0; index < total; index++) {
      // Pairs share an instant: the cursor must not skip or repeat the second of a pair.
      const at = new Date(Date.parse('2026-11-01T00:00:00Z') + Math.floor(index / 2) * 60_000);
      await recordAudit(t.db, { actor: null, action: 'file.downloaded', subject: { type: 'file', id: index }, at });
    }
    const first = await page({ action: 'file.' });
    expect(first.items).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await page({ action: 'file.', cursor: first.next_cursor! });
    expect(second.next_cursor).toBeNull();
    const ids = [...first.items, ...second.items].map((event) => event.subject_id);
    expect(ids).toEqual(Array.from({ length: total }, (_, index) => total - 1 - index));
  });

  it('answers 400 with a field code for a filter it does not know', async () => {
    for (const [query, field, code] of [
      [{ action: 'auth.logout' }, 'action', 'invalid_value'],
      [{ from: '2026-02-30' }, 'from', 'invalid_format'],
      [{ from: '2026-11-20', to: '2026-11-19' }, 'to', 'invalid_value'],
      [{ cursor: 'not-a-cursor' }, 'cursor', 'invalid_format'],
    ] as const) {
      const response = await list(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      expect(response.json().fields, JSON.stringify(query)).toEqual({ [field]: code });
    }
  });

  it('exports the filtered log as a translated .xlsx attachment, and records the export', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'ana@clinic.test', password: WRONG_PASSWORD },
    });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/audit/export?action=auth.login_failed&lang=pt',
      headers: headers.manager,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect(response.headers['content-disposition']).toMatch(/^attachment; .*registo-de-auditoria\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.name).toBe('Registo de auditoria');
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual([
      'Quando',
      'Quem (email)',
      'Perfil',
      'Ação',
      'Objeto',
      'Endereço IP',
      'Navegador (user agent)',
      'Detalhes',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(1, 4)).toEqual(['ana@clinic.test', 'VetCall (sistema)', 'Entrada falhada']);

    const { items } = await page({ action: 'export.audit' });
    expect(items).toEqual([
      expect.objectContaining({
        actor_email: 'boss@clinic.test',
        details: expect.objectContaining({ filters: { action: 'auth.login_failed' }, truncated: false }),
      }),
    ]);
  });
});
