import { useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import type { FreeSlotDto } from '@vetcall/shared/schemas/scheduling';
import { addDaysToDateKey } from '@vetcall/shared/scheduling/zoned-time';
import { apiErrorMessage } from '../../lib/form-errors';
import { formatDateKey, formatDateTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFreeSlots } from '../availability/api/availability';
import classes from './slot-picker.module.css';

export interface SlotPickerProps {
  vetId: number;
  profileId: number | undefined;
  /** The browser's zone: slots are listed in it. */
  tz: string;
  firstDate: string;
  /** The last date offered; none for staff, who are not bound to the booking window. */
  lastDate: string | undefined;
  initialDate: string;
  /** A slot to have chosen once the list shows it (the time chosen before a canceled payment). */
  initialStart?: string;
  /** The label of the button that takes the chosen slot. */
  confirmLabel: string;
  /** Takes the chosen slot; answers false when it could not (the list is fetched again, the choice cleared). */
  onConfirm: (slot: FreeSlotDto) => Promise<boolean>;
}

/**
 * The free slots of one vet's date, in the browser's zone, a day at a time: the embedded scheduler's and
 * the reschedule dialog's. Choosing a slot and confirming hands it to `onConfirm` (which holds it).
 */
export function SlotPicker(props: SlotPickerProps) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { vetId, profileId, tz, firstDate, lastDate } = props;
  const [date, setDate] = useState(props.initialDate);
  const slots = useFreeSlots(vetId, { from: date, to: date, tz }, profileId);
  const [chosen, setChosen] = useState<FreeSlotDto | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Done while rendering, once, when the first list arrives: chosen if it is still free.
  const [pendingStart, setPendingStart] = useState(props.initialStart);
  if (pendingStart && slots.data) {
    setPendingStart(undefined);
    setChosen(slots.data.find((slot) => slot.start === pendingStart) ?? null);
  }
  const changeDate = (next: string) => {
    setDate(next);
    setChosen(null);
  };
  // Choosing the shown date again is how a person asks for the times again.
  const chooseDate = (next: string) => {
    if (next === date) void slots.refetch();
    changeDate(next);
  };

  async function confirm(slot: FreeSlotDto) {
    setConfirming(true);
    try {
      if (!(await props.onConfirm(slot))) {
        setChosen(null);
        void slots.refetch();
      }
    } finally {
      setConfirming(false);
    }
  }

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('slots.zone_note', { zone: tz })}
      </Text>
      <Title order={2} size="h4" aria-live="polite">
        {formatDateKey(date, locale)}
      </Title>
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Button variant="default" disabled={date <= firstDate} onClick={() => changeDate(addDaysToDateKey(date, -1))}>
          {t('scheduler.previous_day')}
        </Button>
        <DateInput
          label={t('scheduler.date')}
          value={date}
          minDate={firstDate}
          maxDate={lastDate}
          onChange={(value) => {
            if (value) chooseDate(value);
          }}
        />
        <Button
          variant="default"
          disabled={lastDate !== undefined && date >= lastDate}
          onClick={() => changeDate(addDaysToDateKey(date, 1))}
        >
          {t('scheduler.next_day')}
        </Button>
      </Group>
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
          <Button onClick={() => void confirm(chosen)} loading={confirming}>
            {props.confirmLabel}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
