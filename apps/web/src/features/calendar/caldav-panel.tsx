import { useState } from 'react';
import { Alert, Button, Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CalDavLinkBody, RemoteCalendar } from '@vetcall/shared/schemas/calendar-link';
import { SectionPanel } from '../../components/ui/section-panel';
import { apiErrorMessage } from '../../lib/form-errors';
import { formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useBusyAction } from '../../lib/use-busy-action';
import { calendarSyncQueryKey, linkCalDav, refreshCalendar, useCalendarSyncStatus } from './api/calendar';

/**
 * The vet's own calendar over CalDAV (ADR 019): server URL, username and app password, checked by the server
 * before it keeps them; then which calendars count as busy and which one receives appointments; when busy
 * times were last read, a refresh button, and a warning when the calendar could not be reached.
 */
export function CalDavPanel({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useCalendarSyncStatus(vetId);
  const { busy, run } = useBusyAction<'link' | 'save' | 'refresh'>();
  const [form, setForm] = useState({ url: '', username: '', password: '' });
  // The password is kept in this screen only (never read back from the server), to save the pickers.
  const [linked, setLinked] = useState<{ body: CalDavLinkBody; calendars: RemoteCalendar[] } | null>(null);
  const [busyCalendars, setBusyCalendars] = useState<string[]>([]);
  const [target, setTarget] = useState<string | null>(null);
  const errorMessage = (error: unknown) => apiErrorMessage(t, error, 'caldav.error');
  const reload = () => queryClient.invalidateQueries({ queryKey: calendarSyncQueryKey(vetId) });
  const data = status.data;

  async function link(event: React.FormEvent) {
    event.preventDefault();
    await run(
      'link',
      async () => {
        const body = { url: form.url.trim(), username: form.username.trim(), password: form.password };
        const answer = await linkCalDav(vetId, body);
        setLinked({ body, calendars: answer.calendars });
        setBusyCalendars(answer.calendars.map((calendar) => calendar.url));
        setTarget(answer.calendars[0]?.url ?? null);
        await Promise.all([reload(), queryClient.invalidateQueries({ queryKey: ['vet-profile'] })]);
        return t('caldav.linked');
      },
      errorMessage,
    );
  }

  async function saveChoices() {
    if (!linked) return;
    await run(
      'save',
      async () => {
        await linkCalDav(vetId, {
          ...linked.body,
          busy_calendars: busyCalendars,
          ...(target ? { target_calendar: target } : {}),
        });
        await reload();
        return t('caldav.saved');
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

  const calendars = linked?.calendars ?? data?.calendars ?? [];
  const nameOf = (url: string | null) => calendars.find((calendar) => calendar.url === url)?.name ?? url ?? '';

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
            {!linked && (
              <Text size="sm">
                {t('caldav.current_choices', {
                  busy: data.busy_calendars.map(nameOf).join(', ') || '—',
                  target: nameOf(data.target_calendar) || '—',
                })}
              </Text>
            )}
            <Group>
              <Button variant="default" loading={busy === 'refresh'} onClick={() => void refresh()}>
                {t('caldav.refresh')}
              </Button>
            </Group>
          </Stack>
        ) : null}

        {linked ? (
          <Stack gap="sm">
            <Checkbox.Group label={t('caldav.busy_calendars')} value={busyCalendars} onChange={setBusyCalendars}>
              <Stack gap={4} mt={4}>
                {linked.calendars.map((calendar) => (
                  <Checkbox key={calendar.url} value={calendar.url} label={calendar.name} />
                ))}
              </Stack>
            </Checkbox.Group>
            <Select
              label={t('caldav.target_calendar')}
              data={linked.calendars.map((calendar) => ({ value: calendar.url, label: calendar.name }))}
              value={target}
              onChange={setTarget}
              allowDeselect={false}
            />
            <Group>
              <Button loading={busy === 'save'} onClick={() => void saveChoices()}>
                {t('caldav.save')}
              </Button>
            </Group>
          </Stack>
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
                  {t(data?.kind === 'caldav' ? 'caldav.relink' : 'caldav.link')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </SectionPanel>
  );
}
