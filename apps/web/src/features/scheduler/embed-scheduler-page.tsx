import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Container, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import type { FreeSlotDto, Hold } from '@vetcall/shared/schemas/scheduling';
import { addDaysToDateKey } from '@vetcall/shared/scheduling/zoned-time';
import { ApiError, apiRequest } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { apiErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateKey, formatDateTime, formatTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFreeSlots } from '../availability/api/availability';
import { lastBookableDate } from './booking-window';
import { postToParent } from './scheduler-messages';
import classes from './embed-scheduler-page.module.css';

function positiveInteger(value: string | null): number | undefined {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * docs/product-rules.md#api Embedded scheduling calendar:
 * /embed/scheduler?vet_id&profile_id&email&name&date&prefix&lang, shown in an iframe by the booking screen. It lists
 * the free slots of a date in the customer's zone (other dates of the window are a click away); choosing one and
 * confirming puts a hold on it and posts { status: 'success', eventId, startTime } to the embedding page (our origin
 * only).
 */
export function EmbedSchedulerPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { user } = useSession();
  const vetId = positiveInteger(search.get('vet_id'));
  const profileId = positiveInteger(search.get('profile_id'));
  const tz = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), tz), [tz]);
  const lastDate = lastBookableDate(today);
  const requested = search.get('date') ?? '';
  const [date, setDate] = useState(requested >= today && requested <= lastDate ? requested : today);

  if (user?.type !== 'customer') {
    return (
      <SchedulerShell>
        <Problem reason="unauthenticated" message={t('scheduler.login_needed')} />
      </SchedulerShell>
    );
  }
  if (vetId === undefined) {
    return (
      <SchedulerShell>
        <Problem reason="invalid_request" message={t('scheduler.invalid_link')} />
      </SchedulerShell>
    );
  }
  return (
    <SchedulerShell>
      <DateSlots
        key={date}
        vetId={vetId}
        profileId={profileId}
        tz={tz}
        date={date}
        today={today}
        lastDate={lastDate}
        onDateChange={setDate}
        name={search.get('name') ?? ''}
        prefix={search.get('prefix') ?? ''}
      />
    </SchedulerShell>
  );
}

function SchedulerShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container size="sm" py="md" component="main">
      <Title order={1} size="h3" mb="sm">
        {t('scheduler.title')}
      </Title>
      {children}
    </Container>
  );
}

/** An unrecoverable problem: said here, and told to the embedding page. */
function Problem({ reason, message }: { reason: string; message: string }) {
  useEffect(() => postToParent({ status: 'error', reason }), [reason]);
  return (
    <Alert color="red" role="alert">
      {message}
    </Alert>
  );
}

function DateSlots(props: {
  vetId: number;
  profileId: number | undefined;
  tz: string;
  date: string;
  today: string;
  lastDate: string;
  onDateChange: (date: string) => void;
  name: string;
  prefix: string;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { vetId, profileId, tz, date, today, lastDate, onDateChange } = props;
  const slots = useFreeSlots(vetId, { from: date, to: date, tz }, profileId);
  const [chosen, setChosen] = useState<FreeSlotDto | null>(null);
  const [holding, setHolding] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [held, setHeld] = useState<Hold | null>(null);

  async function confirm(slot: FreeSlotDto) {
    setHolding(true);
    setFailure(null);
    try {
      const hold = await apiRequest<Hold>('/api/scheduling/holds', {
        method: 'POST',
        body: { vet_id: vetId, profile_id: profileId, start: slot.start },
      });
      setHeld(hold);
      postToParent({ status: 'success', eventId: hold.event_id, startTime: hold.start });
    } catch (error) {
      setFailure(apiErrorMessage(t, error, 'scheduler.hold_error'));
      setChosen(null);
      if (error instanceof ApiError && error.code === 'slot_taken') void slots.refetch();
      postToParent({ status: 'error', reason: error instanceof ApiError ? error.code : 'network_error' });
    } finally {
      setHolding(false);
    }
  }

  if (held) {
    return (
      <Paper withBorder p="md" radius="md" role="status">
        <Text fw={600}>{[props.prefix, formatDateTime(held.start, locale)].filter(Boolean).join(' ')}</Text>
        <Text size="sm" c="dimmed" mt="xs">
          {t('scheduler.held', { time: formatTime(held.expires_at, locale) })}
        </Text>
      </Paper>
    );
  }

  return (
    <Stack>
      {props.name && <Text>{t('scheduler.greeting', { name: props.name })}</Text>}
      <Text size="sm" c="dimmed">
        {t('slots.zone_note', { zone: tz })}
      </Text>
      <Title order={2} size="h4" aria-live="polite">
        {formatDateKey(date, locale)}
      </Title>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Button variant="default" disabled={date <= today} onClick={() => onDateChange(addDaysToDateKey(date, -1))}>
          {t('scheduler.previous_day')}
        </Button>
        <DateInput
          label={t('scheduler.date')}
          value={date}
          minDate={today}
          maxDate={lastDate}
          onChange={(value) => {
            if (value) onDateChange(value);
          }}
        />
        <Button variant="default" disabled={date >= lastDate} onClick={() => onDateChange(addDaysToDateKey(date, 1))}>
          {t('scheduler.next_day')}
        </Button>
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {slots.isPending && <Loader aria-label={t('app.loading')} />}
      {slots.isError && (
        <Alert color="red" role="alert">
          {apiErrorMessage(t, slots.error, 'scheduler.load_error')}
        </Alert>
      )}
      {slots.data?.length === 0 && <Text c="dimmed">{t('scheduler.no_slots')}</Text>}
      {slots.data && slots.data.length > 0 && (
        <div className={classes.slots} role="group" aria-label={t('slots.free_times')}>
          {slots.data.map((slot) => (
            <Button
              key={slot.start}
              variant={chosen?.start === slot.start ? 'filled' : 'default'}
              aria-pressed={chosen?.start === slot.start}
              onClick={() => setChosen(slot)}
            >
              {slot.local_start}
            </Button>
          ))}
        </div>
      )}
      {chosen && (
        <Group justify="flex-end">
          <Text>{t('scheduler.chosen', { time: formatDateTime(chosen.start, locale) })}</Text>
          <Button onClick={() => void confirm(chosen)} loading={holding}>
            {t('scheduler.confirm')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
