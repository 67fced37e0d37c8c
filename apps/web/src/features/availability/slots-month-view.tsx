import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Group, Loader, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import { horizonEndDateKey } from '@vetcall/shared/scheduling/zoned-time';
import { apiErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateKey } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import {
  useAvailabilityProfile,
  useBookedTimes,
  useCalendarProfiles,
  useFreeSlots,
  type DateRange,
} from './api/availability';
import { monthBounds, monthOf, monthWeeks, shiftMonth } from './month-grid';
import classes from './slots-month-view.module.css';

/** Monday to Sunday, for the column headers (1 January 2024 was a Monday). */
const WEEK_DATES = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-06', '2024-01-07'];

function weekdayLabel(date: string, locale: string, width: 'short' | 'long') {
  return new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

function monthLabel(month: string, locale: string) {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-01T00:00:00Z`),
  );
}

/** Items grouped by their 'date' (the viewer's date). */
function byDate<Item extends { date: string }>(items: readonly Item[]): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) groups.set(item.date, [...(groups.get(item.date) ?? []), item]);
  return groups;
}

/**
 * docs/product-rules.md#vet-screens availabilityslots: a view-only month calendar of the vet's free and booked slots,
 * in the browser's zone, from today to the end of the profile's horizon. A date opens its times below the grid.
 */
export function SlotsMonthView({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const tz = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), tz), [tz]);
  const profiles = useCalendarProfiles(vetId);
  const profileId = profiles.data?.[0]?.id;
  const profile = useAvailabilityProfile(vetId, profileId);
  const lastDate = profile.data ? horizonEndDateKey(today, profile.data.timeAvailableFor) : today;
  const [month, setMonth] = useState(monthOf(today));
  const [selected, setSelected] = useState<string | null>(today);

  const { first, last } = monthBounds(month);
  const range: DateRange | null = profile.data
    ? { from: first < today ? today : first, to: last > lastDate ? lastDate : last, tz }
    : null;
  const inRange = range !== null && range.from <= range.to;
  const free = useFreeSlots(vetId, inRange ? range : null, profileId);
  const booked = useBookedTimes(vetId, inRange ? range : null);

  if (profiles.isPending || (profileId !== undefined && profile.isPending)) {
    return <Loader aria-label={t('app.loading')} />;
  }
  const failure = profiles.error ?? profile.error ?? free.error ?? booked.error;
  if (failure) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, failure, 'availability.load_error')}
      </Alert>
    );
  }
  if (!profile.data) return <Text c="dimmed">{t('availability.no_profile')}</Text>;

  const freeByDate = byDate(free.data ?? []);
  const bookedByDate = byDate(booked.data ?? []);
  const loading = inRange && (free.isPending || booked.isPending);
  const selectedFree = selected ? (freeByDate.get(selected) ?? []) : [];
  const selectedBooked = selected ? (bookedByDate.get(selected) ?? []) : [];

  return (
    <Stack maw={960}>
      <Text size="sm" c="dimmed">
        {t('slots.zone_note', { zone: tz })}
      </Text>
      <Paper withBorder p="md" radius="md">
        <Group justify="space-between" mb="sm">
          <ActionIcon
            variant="default"
            aria-label={t('slots.previous_month')}
            disabled={month <= monthOf(today)}
            onClick={() => setMonth(shiftMonth(month, -1))}
          >
            ‹
          </ActionIcon>
          <Title order={2} size="h4" aria-live="polite">
            {monthLabel(month, locale)}
          </Title>
          <ActionIcon
            variant="default"
            aria-label={t('slots.next_month')}
            disabled={month >= monthOf(lastDate)}
            onClick={() => setMonth(shiftMonth(month, 1))}
          >
            ›
          </ActionIcon>
        </Group>
        {loading && <Loader size="sm" aria-label={t('app.loading')} />}
        <table className={classes.grid} aria-label={t('slots.month_table', { month: monthLabel(month, locale) })}>
          <thead>
            <tr>
              {WEEK_DATES.map((date) => (
                <th key={date} scope="col" abbr={weekdayLabel(date, locale, 'long')}>
                  {weekdayLabel(date, locale, 'short')}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {monthWeeks(month).map((week, index) => (
              <tr key={index}>
                {week.map((date, column) =>
                  date === null ? (
                    <td key={column} />
                  ) : (
                    <td key={date}>
                      <DayCell
                        date={date}
                        outside={date < today || date > lastDate}
                        selected={date === selected}
                        freeCount={freeByDate.get(date)?.length ?? 0}
                        bookedCount={bookedByDate.get(date)?.length ?? 0}
                        onSelect={() => setSelected(date)}
                      />
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </Paper>
      {selected && monthOf(selected) === month && (
        <Paper withBorder p="md" radius="md" aria-live="polite">
          <Title order={3} size="h5" mb="xs">
            {formatDateKey(selected, locale)}
          </Title>
          {selectedFree.length === 0 && selectedBooked.length === 0 ? (
            <Text c="dimmed">{t('slots.none_on_date')}</Text>
          ) : (
            <Stack gap="xs">
              {selectedBooked.length > 0 && (
                <Group gap={6} aria-label={t('slots.booked_times')}>
                  <Text size="sm" fw={600} mr="xs">
                    {t('slots.booked_times')}
                  </Text>
                  {selectedBooked.map((item) => (
                    <Badge key={item.start} color={item.kind === 'booking' ? 'red.9' : 'orange.9'} variant="filled">
                      {item.local_start} · {t(`slots.kind.${item.kind}`)}
                    </Badge>
                  ))}
                </Group>
              )}
              {selectedFree.length > 0 && (
                <Group gap={6} aria-label={t('slots.free_times')}>
                  <Text size="sm" fw={600} mr="xs">
                    {t('slots.free_times')}
                  </Text>
                  {selectedFree.map((slot) => (
                    <Badge key={slot.start} color="teal.9" variant="light">
                      {slot.local_start}
                    </Badge>
                  ))}
                </Group>
              )}
            </Stack>
          )}
        </Paper>
      )}
    </Stack>
  );
}

function DayCell(props: {
  date: string;
  outside: boolean;
  selected: boolean;
  freeCount: number;
  bookedCount: number;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const { date, outside, selected, freeCount, bookedCount } = props;
  const label = outside
    ? `${formatDateKey(date, locale)}: ${t('slots.outside_window')}`
    : `${formatDateKey(date, locale)}: ${t('slots.free_count', { count: freeCount })}, ${t('slots.booked_count', { count: bookedCount })}`;
  return (
    <UnstyledButton
      className={classes.day}
      data-outside={outside || undefined}
      data-selected={selected || undefined}
      aria-pressed={selected}
      onClick={props.onSelect}
    >
      {/* Named by the whole date and both counts; what shows is the same, shorter, so it is for the eye only
          (as an aria-label, the name would not contain the visible words in their order). */}
      <span className="sr-only">{label}</span>
      <span className={classes.dayNumber} aria-hidden="true">
        {Number(date.slice(8))}
      </span>
      {!outside && freeCount > 0 && (
        <span className={classes.free} aria-hidden="true">
          {t('slots.free_count', { count: freeCount })}
        </span>
      )}
      {!outside && bookedCount > 0 && (
        <span className={classes.booked} aria-hidden="true">
          {t('slots.booked_count', { count: bookedCount })}
        </span>
      )}
    </UnstyledButton>
  );
}
