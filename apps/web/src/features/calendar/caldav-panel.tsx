import { useState } from 'react';
import { Alert, Button, Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CalendarSyncStatus } from '@vetcall/shared/schemas/calendar-link';
import { SectionPanel } from '../../components/ui/section-panel';
import { apiErrorMessage } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useBusyAction } from '../../lib/use-busy-action';
import {
  calendarSyncQueryKey,
  chooseCalDavCalendars,
  linkCalDav,
  refreshCalendar,
  useCalendarSyncStatus,
} from './api/calendar';

/**
 * The vet's own calendar over CalDAV (ADR 019): server URL, username and app password, checked by the server
 * before it keeps them; then which calendars count as busy and which one receives appointments, changed at any
 * time with the credentials the server keeps (the screen never has the password again); when busy times were
 * last read, a refresh button, and a warning when the calendar could not be reached.
 */
export function CalDavPanel({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useCalendarSyncStatus(vetId);
  const { busy, run } = useBusyAction<'link' | 'refresh'>();
  const [form, setForm] = useState({ url: '', username: '', password: '' });
  // A linked vet sees the choices; the credentials form comes back when they ask to use another account.
  const [changingAccount, setChangingAccount] = useState(false);
  const errorMessage = (error: unknown) => apiErrorMessage(t, error, 'caldav.error');
  const data = status.data;
  const linked = data?.kind === 'caldav';

  async function link(event: React.FormEvent) {
    event.preventDefault();
    await run(
      'link',
      async () => {
        const body = { url: form.url.trim(), username: form.username.trim(), password: form.password };
        await linkCalDav(vetId, body);
        setForm({ url: '', username: '', password: '' });
        setChangingAccount(false);
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: calendarSyncQueryKey(vetId) }),
          queryClient.invalidateQueries({ queryKey: ['vet-profile'] }),
        ]);
        return t('caldav.linked');
      },
      errorMessage,
    );
  }

  async function refresh() {
    await run(
      'refresh',
      async () => {
        queryClient.setQueryData(calendarSyncQueryKey(vetId), await refreshCalendar(vetId));
        return t('caldav.refreshed');
      },
      errorMessage,
    );
  }

  return (
    <SectionPanel headingId="caldav-heading" title={t('caldav.heading')} description={t('caldav.help')}>
      <Stack gap="md">
        {data?.kind ? (
          <Stack gap="xs" aria-live="polite">
            <Text size="sm">
              {data.busy_read_at
                ? t('caldav.last_read', { time: formatDateTime(data.busy_read_at, currentLocale()) })
                : t('caldav.never_read')}
            </Text>
            {data.stale && (
              <Alert color="orange" title={t('caldav.unreachable_title')} role="alert">
                {t('caldav.unreachable')}
              </Alert>
            )}
            <Group>
              <Button variant="default" loading={busy === 'refresh'} onClick={() => void refresh()}>
                {t('caldav.refresh')}
              </Button>
            </Group>
          </Stack>
        ) : null}

        {linked && !changingAccount ? (
          <>
            {/* Remounted when the server's choices change, so the pickers start from what is saved. */}
            <CalDavChoices
              key={JSON.stringify([data.calendars, data.busy_calendars, data.target_calendar])}
              vetId={vetId}
              status={data}
            />
            <Text size="sm">
              {t('caldav.account', { username: data.username ?? '', url: data.url ?? '' })}{' '}
              <Button variant="subtle" size="compact-sm" onClick={() => setChangingAccount(true)}>
                {t('caldav.change_account')}
              </Button>
            </Text>
          </>
        ) : (
          <form onSubmit={(event) => void link(event)} aria-labelledby="caldav-heading">
            <Stack gap="sm">
              <TextInput
                label={t('caldav.url')}
                description={t('caldav.url_help')}
                type="url"
                required
                value={form.url}
                onChange={(event) => setForm({ ...form, url: event.currentTarget.value })}
              />
              <TextInput
                label={t('caldav.username')}
                required
                autoComplete="username"
                value={form.username}
                onChange={(event) => setForm({ ...form, username: event.currentTarget.value })}
              />
              <PasswordInput
                label={t('caldav.password')}
                description={t('caldav.password_help')}
                required
                autoComplete="new-password"
                value={form.password}
                onChange={(event) => setForm({ ...form, password: event.currentTarget.value })}
              />
              <Group>
                <Button type="submit" loading={busy === 'link'}>
                  {t(linked ? 'caldav.relink' : 'caldav.link')}
                </Button>
                {linked && (
                  <Button variant="default" onClick={() => setChangingAccount(false)}>
                    {t('common.cancel')}
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </SectionPanel>
  );
}

/** The linked account's calendars: which count as busy, which receives appointments; saved by the server. */
function CalDavChoices({ vetId, status }: { vetId: number; status: CalendarSyncStatus }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { busy, run } = useBusyAction<'save'>();
  const [busyCalendars, setBusyCalendars] = useState(status.busy_calendars);
  const [target, setTarget] = useState(status.target_calendar);

  async function save() {
    await run(
      'save',
      async () => {
        const saved = await chooseCalDavCalendars(vetId, {
          busy_calendars: busyCalendars,
          ...(target ? { target_calendar: target } : {}),
        });
        queryClient.setQueryData(calendarSyncQueryKey(vetId), saved);
        return t('caldav.saved');
      },
      (error) => apiErrorMessage(t, error, 'caldav.save_error'),
    );
  }

  return (
    <Stack gap="sm">
      <Checkbox.Group label={t('caldav.busy_calendars')} value={busyCalendars} onChange={setBusyCalendars}>
        <Stack gap={4} mt={4}>
          {status.calendars.map((calendar) => (
            <Checkbox key={calendar.url} value={calendar.url} label={calendar.name} />
          ))}
        </Stack>
      </Checkbox.Group>
      <Select
        label={t('caldav.target_calendar')}
        data={status.calendars.map((calendar) => ({ value: calendar.url, label: calendar.name }))}
        value={target}
        onChange={setTarget}
        allowDeselect={false}
      />
      <Group>
        <Button loading={busy === 'save'} onClick={() => void save()}>
          {t('caldav.save')}
        </Button>
      </Group>
    </Stack>
  );
}
