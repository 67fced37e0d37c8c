import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type AuditEventDto, auditPageSchema } from '@vetcall/shared/schemas/audit';
import { formatDateTime } from '../../lib/format';
import { storage } from '../../lib/storage';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { writeDate } from '../../test/user-input';
import { PHONE_WIDTH, setViewportWidth } from '../../test/viewport';
import { AuditLogPanel } from './audit-log-panel';

const event = (id: number, overrides: Partial<AuditEventDto> = {}): AuditEventDto => ({
  id,
  occurred_at: `2026-11-20T1${id}:00:00.000Z`,
  actor_user_id: 1,
  actor_role: 'manager',
  actor_email: 'boss@clinic.test',
  action: 'product.price_changed',
  subject_type: 'product',
  subject_id: 4,
  ip: '203.0.113.9',
  user_agent: 'Firefox',
  details: { old_price_cents: 2500, new_price_cents: 3000 },
  ...overrides,
});

const failedLogin = event(2, {
  actor_user_id: null,
  actor_role: null,
  actor_email: 'nobody@clinic.test',
  action: 'auth.login_failed',
  subject_type: null,
  subject_id: null,
  details: { reason: 'unknown_email' },
});

/** The server's list: two pages unfiltered, and what an action filter selects. */
function fakeServer() {
  return fakeApi()
    .answer('GET', /^\/api\/audit\?/, auditPageSchema, ({ url }) => {
      const search = new URL(url, 'http://x').searchParams;
      if (search.get('action') === 'auth.login_failed') return { items: [failedLogin], next_cursor: null };
      if (search.get('cursor') === 'page-2') return { items: [event(1, { details: {} })], next_cursor: null };
      return { items: [failedLogin, event(3)], next_cursor: 'page-2' };
    })
    .raw(
      'GET',
      /^\/api\/audit\/export\?/,
      () =>
        new Response('xlsx', {
          status: 200,
          headers: { 'content-disposition': 'attachment; filename="20261120100000-audit-log.xlsx"' },
        }),
    );
}

const auditUrls = (urls: string[]) => urls.filter((url) => url.startsWith('/api/audit?'));

// Typing into Mantine fields is slow on a busy machine: more than the default 5 s.
describe('AuditLogPanel', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
    storage.setSession('tok', { user_id: 1, type: 'manager', name: 'Mia', email: 'boss@clinic.test', locale: 'en' });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists who did what, when and from where, newest first, with Load more', async () => {
    const api = fakeServer();
    render(withProviders(<AuditLogPanel />));
    const table = await screen.findByRole('table', { name: 'Audit events' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'WhenWhoActionSubjectFrom whereDetails',
      `${formatDateTime(failedLogin.occurred_at, 'en')}nobody@clinic.testFailed login—203.0.113.9{"reason":"unknown_email"}`,
      `${formatDateTime(event(3).occurred_at, 'en')}boss@clinic.test (Manager)Price changedProduct #4203.0.113.9` +
        '{"old_price_cents":2500,"new_price_cents":3000}',
    ]);
    expect(screen.getByText('Dates are days in the clinic’s time zone (Europe/Lisbon).')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(auditUrls(api.urls)).toEqual(['/api/audit?', '/api/audit?cursor=page-2']);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());
  });

  it('filters by action (translated names, groups too), actor and dates, and exports the same selection', async () => {
    const api = fakeServer();
    render(withProviders(<AuditLogPanel />));
    await screen.findByRole('table', { name: 'Audit events' });

    const action = screen.getByLabelText('Action') as HTMLSelectElement;
    const options = within(action)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options.slice(0, 3)).toEqual(['All actions', 'Logins and passwords (all)', 'Accounts (all)']);
    expect(options).toContain('Appointment confirmed');
    await userEvent.selectOptions(action, 'auth.login_failed');
    await userEvent.type(screen.getByLabelText('Who (part of the email)'), 'nobody');
    await writeDate(screen.getByLabelText('From') as HTMLInputElement, '11/01/2026');
    await writeDate(screen.getByLabelText('To') as HTMLInputElement, '11/20/2026');
    await waitFor(() =>
      expect(auditUrls(api.urls).at(-1)).toBe(
        '/api/audit?actor=nobody&action=auth.login_failed&from=2026-11-01&to=2026-11-20',
      ),
    );
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Audit events' })).getAllByRole('row')).toHaveLength(2),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(api.urls.some((url) => url.startsWith('/api/audit/export?'))).toBe(true));
    expect(api.urls.find((url) => url.startsWith('/api/audit/export?'))).toBe(
      '/api/audit/export?actor=nobody&action=auth.login_failed&from=2026-11-01&to=2026-11-20&lang=en',
    );
  });

  it('asks nothing for a range that ends before it starts, and says why', async () => {
    const api = fakeServer();
    render(withProviders(<AuditLogPanel />));
    await screen.findByRole('table', { name: 'Audit events' });
    await writeDate(screen.getByLabelText('From') as HTMLInputElement, '11/20/2026');
    await waitFor(() => expect(auditUrls(api.urls).at(-1)).toBe('/api/audit?from=2026-11-20'));
    const asked = auditUrls(api.urls).length;
    await writeDate(screen.getByLabelText('To') as HTMLInputElement, '11/01/2026');
    expect(await screen.findByText('The end date cannot come before the start date.')).toBeTruthy();
    expect(auditUrls(api.urls)).toHaveLength(asked);
    expect((screen.getByRole('button', { name: 'Export to Excel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('keeps the rows shown when Load more fails, and says why', async () => {
    fakeServer().refuse('GET', /cursor=page-2/, 500, { error: 'internal_error', message: 'x' });
    render(withProviders(<AuditLogPanel />));
    const table = await screen.findByRole('table', { name: 'Audit events' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });

  it('on a phone, lists the events as cards', async () => {
    setViewportWidth(PHONE_WIDTH);
    fakeServer();
    render(withProviders(<AuditLogPanel />));
    const list = await screen.findByRole('list', { name: 'Audit events' });
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(within(list).getAllByRole('listitem')[0]!).getByText('Failed login')).toBeTruthy();
  });
});
