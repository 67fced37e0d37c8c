import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { z } from 'zod';
import { type FailedMail, failedMailPageSchema } from '@vetcall/shared/schemas/failed-mail';
import { fakeApi, refusal } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { formatDateTime } from '../../lib/format';
import { UndeliveredMailPanel } from './undelivered-mail-panel';

/** The 204 of retry and dismiss: no body. */
const noContent = z.undefined();

const mail = (id: number, overrides: Partial<FailedMail> = {}): FailedMail => ({
  id,
  to: `owner${id}@clinic.test`,
  subject: `Your appointment ${id}`,
  attempts: 79,
  last_error: 'connect ECONNREFUSED 127.0.0.1:25',
  created_at: '2030-06-07T12:00:00.000Z',
  failed_at: `2030-06-10T1${id}:00:00.000Z`,
  ...overrides,
});

/**
 * A stand-in for the server: failed mails kept in memory, newest first, pages of `pageSize`; retry and
 * dismiss take a mail off the list as the server does, and answer 404 for one already gone.
 */
function fakeServer(items: FailedMail[], options: { pageSize?: number } = {}) {
  const failed = [...items];
  const pageSize = options.pageSize ?? 50;
  const takeOff = (id: number) => {
    const at = failed.findIndex((item) => item.id === id);
    if (at < 0) return refusal(404, { error: 'not_found', message: 'Not found.' });
    failed.splice(at, 1);
    return undefined;
  };
  return fakeApi()
    .answer('GET', /^\/api\/mail\/failed(\?cursor=(\d+))?$/, failedMailPageSchema, ({ match }) => {
      const start = Number(match[2] ?? 0);
      const end = start + pageSize;
      return {
        items: failed.slice(start, end),
        next_cursor: end < failed.length ? String(end) : null,
        total: failed.length,
      };
    })
    .answer('POST', /^\/api\/mail\/failed\/(\d+)\/retry$/, noContent, ({ match }) => takeOff(Number(match[1])))
    .answer('DELETE', /^\/api\/mail\/failed\/(\d+)$/, noContent, ({ match }) => takeOff(Number(match[1])));
}

const renderPanel = () => render(withProviders(<UndeliveredMailPanel />));
const table = () => screen.findByRole('table', { name: 'Undelivered emails' });

describe('UndeliveredMailPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('lists recipient, subject, attempts, last error and when it failed, with the total', async () => {
    fakeServer([mail(2), mail(1, { to: null, subject: null, last_error: null })]);
    renderPanel();
    const rows = within(await table()).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'RecipientSubjectAttemptsLast errorFailed atOperations',
      `owner2@clinic.testYour appointment 279connect ECONNREFUSED 127.0.0.1:25${formatDateTime(mail(2).failed_at, 'en')}RetryDismiss`,
      `Unreadable recipientUnreadable subject79—${formatDateTime(mail(1).failed_at, 'en')}RetryDismiss`,
    ]);
    expect(screen.getByText('Waiting: 2')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Undelivered mail' })).toBeTruthy();
  });

  it('says when nothing is waiting', async () => {
    fakeServer([]);
    renderPanel();
    expect(await screen.findByText('No undelivered mail: every email was sent.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('retries a mail from its row, says so and reloads the list', async () => {
    const api = fakeServer([mail(2), mail(1)]);
    renderPanel();
    await table();
    await userEvent.click(
      screen.getByRole('button', { name: 'Retry the email to owner2@clinic.test: Your appointment 2' }),
    );
    expect(await screen.findByText('The email to owner2@clinic.test was queued again.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('owner2@clinic.test')).toBeNull());
    expect(screen.getByText('Waiting: 1')).toBeTruthy();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([
      { method: 'POST', url: '/api/mail/failed/2/retry', body: undefined },
    ]);
  });

  it('dismisses a mail only after confirmation', async () => {
    const api = fakeServer([mail(1)]);
    renderPanel();
    await table();
    const dismiss = screen.getByRole('button', { name: 'Dismiss the email to owner1@clinic.test: Your appointment 1' });

    await userEvent.click(dismiss);
    let dialog = await screen.findByRole('dialog', { name: 'Dismiss this email?' });
    expect(
      within(dialog).getByText('The email to owner1@clinic.test (Your appointment 1) will be deleted and never sent.'),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await userEvent.click(dismiss);
    dialog = await screen.findByRole('dialog', { name: 'Dismiss this email?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('The email to owner1@clinic.test was dismissed.')).toBeTruthy();
    expect(await screen.findByText('No undelivered mail: every email was sent.')).toBeTruthy();
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([
      { method: 'DELETE', url: '/api/mail/failed/1', body: undefined },
    ]);
  });

  it('says when another manager got there first, and when the server fails', async () => {
    fakeServer([mail(2), mail(1)])
      .refuse('POST', '/api/mail/failed/2/retry', 404, { error: 'not_found', message: 'Not found.' })
      .refuse('POST', '/api/mail/failed/1/retry', 500, { error: 'internal_error', message: 'x' });
    renderPanel();
    await table();
    await userEvent.click(screen.getByRole('button', { name: /^Retry the email to owner2/ }));
    expect(
      await screen.findByText('This email is no longer waiting: another manager may have retried or dismissed it.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /^Retry the email to owner1/ }));
    expect(await screen.findByText('The email could not be queued again.')).toBeTruthy();
  });

  it('shows why the list could not be loaded', async () => {
    fakeApi().networkFailure('GET', /^\/api\/mail\/failed/);
    renderPanel();
    // The query tries once more (a second later) before it shows the error.
    // Within the panel: toasts of earlier tests are alerts too.
    const panel = screen.getByRole('region', { name: 'Undelivered mail' });
    expect((await within(panel).findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(
      'Could not reach the server. Check your connection and try again.',
    );
  });

  it('loads the next page with the cursor of the last', async () => {
    const api = fakeServer([mail(3), mail(2), mail(1)], { pageSize: 2 });
    renderPanel();
    expect(within(await table()).getAllByRole('row')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(4));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(api.urls).toEqual(['/api/mail/failed', '/api/mail/failed?cursor=2']);
  });
});
