import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import {
  type CalendarSyncStatus,
  calDavLinkResponseSchema,
  calendarSyncStatusSchema,
} from '@vetcall/shared/schemas/calendar-link';
import { loadTestClientConfig } from '../../test/client-config';
import { fakeApi } from '../../test/fake-api';
import { initTestI18n, withProviders } from '../../test/render';
import { chooseOption } from '../../test/user-input';
import { CalDavPanel } from './caldav-panel';

const NOT_LINKED: CalendarSyncStatus = {
  kind: null,
  url: null,
  username: null,
  calendars: [],
  busy_calendars: [],
  target_calendar: null,
  busy_read_at: null,
  last_error: null,
  last_error_at: null,
  stale: false,
};
const WORK = 'https://dav.example.org/joao/work/';
const HOME = 'https://dav.example.org/joao/home/';
const LINKED: CalendarSyncStatus = {
  kind: 'caldav',
  url: 'https://dav.example.org/',
  username: 'joao',
  calendars: [
    { url: WORK, name: 'Work' },
    { url: HOME, name: 'Home' },
  ],
  busy_calendars: [WORK, HOME],
  target_calendar: WORK,
  busy_read_at: '2026-11-18T12:00:00.000Z',
  last_error: null,
  last_error_at: null,
  stale: false,
};

describe('CalDavPanel', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await loadTestClientConfig();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    notifications.clean();
  });

  it('links with URL, username and app password, then shows the account’s calendars to choose from', async () => {
    let linked = false;
    const api = fakeApi()
      .answer('GET', '/api/vets/4/calendar', calendarSyncStatusSchema, () => (linked ? LINKED : NOT_LINKED))
      .answer('PUT', '/api/vets/4/calendar/caldav', calDavLinkResponseSchema, () => {
        linked = true;
        return { linked: true as const, calendars: LINKED.calendars };
      });
    render(withProviders(<CalDavPanel vetId={4} />));
    await userEvent.type(await screen.findByLabelText(/Server URL/), 'https://dav.example.org/');
    await userEvent.type(screen.getByLabelText(/Username/), 'joao');
    await userEvent.type(screen.getByLabelText(/App password/), 'abcd-efgh');
    await userEvent.click(screen.getByRole('button', { name: 'Link CalDAV calendar' }));
    expect(await screen.findByText('Calendar linked.')).toBeTruthy();
    expect(api.calls).toContainEqual({
      method: 'PUT',
      url: '/api/vets/4/calendar/caldav',
      body: { url: 'https://dav.example.org/', username: 'joao', password: 'abcd-efgh' },
    });
    expect(await screen.findByRole('checkbox', { name: 'Home' })).toHaveProperty('checked', true);
    expect(screen.getByText(/Linked account: joao on https:\/\/dav.example.org\//)).toBeTruthy();
    expect(screen.queryByLabelText(/App password/)).toBeNull();
  });

  it('changes the choices of a linked account without asking for the password again', async () => {
    const api = fakeApi()
      .answer('GET', '/api/vets/4/calendar', calendarSyncStatusSchema, LINKED)
      .answer('PUT', '/api/vets/4/calendar/caldav/choices', calendarSyncStatusSchema, {
        ...LINKED,
        busy_calendars: [WORK],
        target_calendar: HOME,
      });
    render(withProviders(<CalDavPanel vetId={4} />));
    const home = await screen.findByRole('checkbox', { name: 'Home' });
    expect(home).toHaveProperty('checked', true);
    expect(screen.queryByLabelText(/App password/)).toBeNull();
    await userEvent.click(home);
    await chooseOption(screen.getByRole('combobox', { name: 'Calendar that receives appointments' }), 'Home');
    await userEvent.click(screen.getByRole('button', { name: 'Save calendar choices' }));
    expect(await screen.findByText('Calendar choices saved.')).toBeTruthy();
    expect(api.calls.at(-1)).toEqual({
      method: 'PUT',
      url: '/api/vets/4/calendar/caldav/choices',
      body: { busy_calendars: [WORK], target_calendar: HOME },
    });
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Home' })).toHaveProperty('checked', false));
  });

  it('says why the choices were not saved, and offers the credentials form for another account', async () => {
    fakeApi()
      .answer('GET', '/api/vets/4/calendar', calendarSyncStatusSchema, LINKED)
      .refuse('PUT', '/api/vets/4/calendar/caldav/choices', 400, { error: 'calendar_auth_failed', message: 'x' });
    render(withProviders(<CalDavPanel vetId={4} />));
    await userEvent.click(await screen.findByRole('button', { name: 'Save calendar choices' }));
    expect(
      await screen.findByText('The calendar server refused this username and password. Use an app password.'),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Use another account' }));
    expect(screen.getByLabelText(/App password/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Link again' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText(/App password/)).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Work' })).toBeTruthy();
  });

  it('says why the server refused the link', async () => {
    fakeApi()
      .answer('GET', '/api/vets/4/calendar', calendarSyncStatusSchema, NOT_LINKED)
      .refuse('PUT', '/api/vets/4/calendar/caldav', 400, { error: 'calendar_auth_failed', message: 'x' });
    render(withProviders(<CalDavPanel vetId={4} />));
    await userEvent.type(await screen.findByLabelText(/Server URL/), 'https://dav.example.org/');
    await userEvent.type(screen.getByLabelText(/Username/), 'joao');
    await userEvent.type(screen.getByLabelText(/App password/), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Link CalDAV calendar' }));
    expect(
      await screen.findByText('The calendar server refused this username and password. Use an app password.'),
    ).toBeTruthy();
  });

  it('shows when busy times were read, warns when the calendar is unreachable, and refreshes', async () => {
    const stale = {
      ...LINKED,
      stale: true,
      last_error: 'CalDAV: unreachable',
      last_error_at: '2026-11-18T12:05:00.000Z',
    };
    const api = fakeApi()
      .answer('GET', '/api/vets/4/calendar', calendarSyncStatusSchema, stale)
      .answer('POST', '/api/vets/4/calendar/refresh', calendarSyncStatusSchema, {
        ...LINKED,
        busy_read_at: '2026-11-18T12:10:00.000Z',
      });
    render(withProviders(<CalDavPanel vetId={4} />));
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByText(/Busy times last read:/)).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Work' })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh busy times' }));
    expect(await screen.findByText('Busy times read again.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Calendar unreachable')).toBeNull());
    expect(api.calls.map((call) => `${call.method} ${call.url}`)).toContain('POST /api/vets/4/calendar/refresh');
  });
});
