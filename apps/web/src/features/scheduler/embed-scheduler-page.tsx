import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Alert, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import type { FreeSlotDto, Hold } from '@vetcall/shared/schemas/scheduling';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/auth-store';
import { apiErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateTime, formatTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { lastBookableDate } from './booking-window';
import { postToParent } from './scheduler-messages';
import { createHold } from './holds-api';
import { SlotPicker } from './slot-picker';

function positiveInteger(value: string | null): number | undefined {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : undefined;
}

/**
 * docs/product-rules.md#api Embedded scheduling calendar:
 * /embed/scheduler?vet_id&profile_id&email&name&date&prefix&lang (and ours: start, a time chosen before a canceled
 * payment, selected again while free), shown in an iframe by the booking screen. It lists
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
  const date = requested >= today && requested <= lastDate ? requested : today;

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
        vetId={vetId}
        profileId={profileId}
        tz={tz}
        date={date}
        today={today}
        lastDate={lastDate}
        name={search.get('name') ?? ''}
        prefix={search.get('prefix') ?? ''}
        start={search.get('start') ?? undefined}
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
  name: string;
  prefix: string;
  start: string | undefined;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { vetId, profileId } = props;
  const [failure, setFailure] = useState<string | null>(null);
  const [held, setHeld] = useState<Hold | null>(null);

  async function hold(slot: FreeSlotDto): Promise<boolean> {
    setFailure(null);
    try {
      const created = await createHold({ vet_id: vetId, profile_id: profileId, start: slot.start });
      setHeld(created);
      postToParent({ status: 'success', eventId: created.event_id, startTime: created.start });
      return true;
    } catch (error) {
      setFailure(apiErrorMessage(t, error, 'scheduler.hold_error'));
      postToParent({ status: 'error', reason: error instanceof ApiError ? error.code : 'network_error' });
      return false;
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
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      <SlotPicker
        vetId={vetId}
        profileId={profileId}
        tz={props.tz}
        firstDate={props.today}
        lastDate={props.lastDate}
        initialDate={props.date}
        initialStart={props.start}
        confirmLabel={t('scheduler.confirm')}
        onConfirm={hold}
      />
    </Stack>
  );
}
