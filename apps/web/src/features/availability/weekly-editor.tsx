import { useMemo, useState } from 'react';
import { Alert, Button, Group, Loader, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { todayKey } from '@vetcall/shared/dates';
import type { Locale } from '@vetcall/shared/locales';
import { type AvailabilityProfile, WEEKDAYS } from '@vetcall/shared/schemas/availability';
import {
  type AvailabilityWeek,
  availabilityWeeks,
  nextDefaultInterval,
  validateDayIntervals,
  type WorkingInterval,
} from '@vetcall/shared/scheduling/slots';
import { intervalsOnDate } from '@vetcall/shared/scheduling/vets-availability';
import { DataTable } from '../../components/ui/data-table';
import { confirmDialog } from '../../lib/confirm';
import { browserTimeZone, formatDateKey } from '../../lib/format';
import { actionErrorMessage, apiErrorMessage } from '../../lib/form-errors';
import { currentLocale } from '../../lib/i18n';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  availabilityProfileQueryKey,
  updateAvailabilityProfile,
  useAvailabilityProfile,
  useCalendarProfiles,
  useTimeLimits,
} from './api/availability';

/** Overlapping intervals get a red border; their text keeps the normal colour (contrast). */
const OVERLAP_STYLES = { input: { borderColor: 'var(--mantine-color-red-9)', borderWidth: 2 } };

/** The intervals of each date of the selected week, keyed by date ('YYYY-MM-DD'). */
type WeekHours = Record<string, WorkingInterval[]>;

/** The intervals of each date of the week (date-specific entries replace the weekly pattern). */
export function hoursOfWeek(profile: AvailabilityProfile, week: AvailabilityWeek): WeekHours {
  return Object.fromEntries(week.days.map((day) => [day.date, intervalsOnDate(profile, day.date)]));
}

/** The profile with the week's dates written as date-specific entries; other dates' entries are kept. */
export function withWeekEntries(profile: AvailabilityProfile, week: AvailabilityWeek, hours: WeekHours) {
  const dates = new Set(week.days.map((day) => day.date));
  const intervals = [
    ...profile.availabilityIntervals.intervals.filter((entry) => !dates.has(entry.dateStartInclusive)),
    ...week.days.map((day) => ({ dateStartInclusive: day.date, hours: sortedIntervals(hours[day.date] ?? []) })),
  ].sort((a, b) => a.dateStartInclusive.localeCompare(b.dateStartInclusive));
  return { ...profile, availabilityIntervals: { intervals } };
}

/** The profile with the week's hours as the weekly pattern and no date-specific entries from the week on. */
export function withWeeklyPattern(profile: AvailabilityProfile, week: AvailabilityWeek, hours: WeekHours) {
  const daySchedules = week.days
    .map((day) => ({ dayOfWeek: WEEKDAYS[day.weekday - 1]!, workingIntervals: sortedIntervals(hours[day.date] ?? []) }))
    .filter((day) => day.workingIntervals.length > 0);
  const intervals = profile.availabilityIntervals.intervals.filter(
    (entry) => entry.dateStartInclusive < week.date_start,
  );
  return {
    ...profile,
    workHours: { ...profile.workHours, daySchedules },
    availabilityIntervals: { intervals },
  };
}

function sortedIntervals(intervals: readonly WorkingInterval[]): WorkingInterval[] {
  return [...intervals].sort((a, b) => a.start.localeCompare(b.start));
}

/** The weekday's name with only its first letter capitalised ("Segunda-feira", not "Segunda-Feira"). */
function weekdayName(date: string, locale: Locale): string {
  const name = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/**
 * docs/product-rules.md#vet-screens availabilityconfig, #states Availability editing, #validation Working intervals:
 * the vet's first availability profile, one of the ten availability weeks at a time. Each date shows its working
 * intervals (date-specific hours, else the weekly pattern); Save writes the week's seven dates as date-specific hours.
 */
export function WeeklyEditor({ vetId }: { vetId: number }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const profiles = useCalendarProfiles(vetId);
  const profileId = profiles.data?.[0]?.id;
  const profile = useAvailabilityProfile(vetId, profileId);
  const timeLimits = useTimeLimits();
  const weeks = useMemo(() => availabilityWeeks(todayKey(new Date(), browserTimeZone())), []);
  const [weekIndex, setWeekIndex] = useState(0);
  const [draft, setDraft] = useState<WeekHours | null>(null);
  const [saving, setSaving] = useState(false);

  const week = weeks[weekIndex]!;

  if (profiles.isPending || (profileId !== undefined && profile.isPending) || timeLimits.isPending) {
    return <Loader aria-label={t('app.loading')} />;
  }
  if (profiles.isError || profile.isError || timeLimits.isError) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, profiles.error ?? profile.error ?? timeLimits.error, 'availability.load_error')}
      </Alert>
    );
  }
  if (!profile.data) return <Text c="dimmed">{t('availability.no_profile')}</Text>;

  const loaded = profile.data;
  const hours = draft ?? hoursOfWeek(loaded, week);
  const dirty = draft !== null;
  const overlapDays = new Set(
    week.days.filter((day) => !validateDayIntervals(hours[day.date] ?? []).ok).map((day) => day.date),
  );
  const times = timeLimits.data.map((limit) => limit.time_limit);
  const dayLabel = (date: string) => `${weekdayName(date, locale)}, ${formatDateKey(date, locale)}`;

  function setDay(date: string, intervals: WorkingInterval[]) {
    setDraft({ ...hours, [date]: intervals });
  }

  function changeTime(date: string, index: number, field: 'start' | 'end', value: string) {
    const intervals = hours[date] ?? [];
    const changed = { ...intervals[index]!, [field]: value };
    // docs/product-rules.md#validation: the end must be later than the start; otherwise the old values stay.
    if (!validateDayIntervals([changed]).ok) {
      notifyError(t('availability.start_end'));
      return;
    }
    setDay(
      date,
      intervals.map((interval, i) => (i === index ? changed : interval)),
    );
  }

  function addInterval(date: string) {
    const next = nextDefaultInterval(hours[date] ?? []);
    if (next) setDay(date, [...(hours[date] ?? []), next]);
  }

  async function removeInterval(date: string, index: number) {
    const intervals = hours[date] ?? [];
    const interval = intervals[index];
    if (!interval) {
      notifyError(t('availability.remove_error'));
      return;
    }
    const confirmed = await confirmDialog({
      title: t('availability.remove_title'),
      message: t('availability.remove_confirm', { start: interval.start, end: interval.end, day: dayLabel(date) }),
      confirmLabel: t('availability.remove_interval'),
      danger: true,
    });
    if (!confirmed) return;
    // The dialog is modal: nothing else changed the week while it was open.
    setDay(
      date,
      intervals.filter((_, i) => i !== index),
    );
    notifySuccess(t('availability.interval_removed'));
  }

  async function changeWeek(value: string) {
    const index = weeks.findIndex((item) => String(item.number) === value);
    if (index < 0 || index === weekIndex) return;
    if (dirty) {
      const confirmed = await confirmDialog({
        title: t('availability.unsaved_title'),
        message: t('availability.unsaved_confirm'),
        confirmLabel: t('availability.discard'),
      });
      if (!confirmed) return;
    }
    setDraft(null);
    setWeekIndex(index);
  }

  function cancel() {
    setDraft(null);
    notifySuccess(t('availability.canceled'));
  }

  async function persist(next: AvailabilityProfile) {
    setSaving(true);
    try {
      const saved = await updateAvailabilityProfile(vetId, next);
      queryClient.setQueryData(availabilityProfileQueryKey(vetId, saved.id), saved);
      setDraft(null);
      notifySuccess(t('availability.updated'));
      await queryClient.invalidateQueries({ queryKey: availabilityProfileQueryKey(vetId, saved.id) });
    } catch (error) {
      notifyError(actionErrorMessage(t, error, 'availability.edit_error'));
    } finally {
      setSaving(false);
    }
  }

  function blockedByOverlap(): boolean {
    if (overlapDays.size === 0) return false;
    notifyError(t('availability.overlap'));
    return true;
  }

  async function save() {
    if (saving || blockedByOverlap()) return;
    await persist(withWeekEntries(loaded, week, hours));
  }

  async function applyEveryWeek() {
    if (saving || blockedByOverlap()) return;
    const confirmed = await confirmDialog({
      title: t('availability.every_week_title'),
      message: t('availability.every_week_confirm', { date: formatDateKey(week.date_start, locale) }),
      confirmLabel: t('availability.every_week_confirm_label'),
    });
    if (!confirmed) return;
    await persist(withWeeklyPattern(loaded, week, hours));
  }

  const weekOptions = weeks.map((item) => ({
    value: String(item.number),
    label: t('availability.week_option', {
      week: String(item.number % 100),
      start: formatDateKey(item.date_start, locale),
      end: formatDateKey(item.date_end, locale),
    }),
  }));

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="availability-heading">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={2} size="h3" id="availability-heading">
              {t('availability.heading')}
            </Title>
            <Text size="sm" c="dimmed" data-testid="availability-zone">
              {t('availability.time_zone', { zone: loaded.workHours.timezone })}
            </Text>
          </div>
          <NativeSelect
            label={t('availability.week')}
            data={weekOptions}
            value={String(week.number)}
            onChange={(event) => void changeWeek(event.currentTarget.value)}
            w={{ base: '100%', sm: 360 }}
          />
        </Group>
        <DataTable
          label={t('availability.table_label')}
          rows={week.days}
          rowKey={(day) => day.date}
          columns={[
            {
              header: t('availability.day'),
              cell: (day) => (
                <>
                  <Text fw={600}>{weekdayName(day.date, locale)}</Text>
                  <Text size="sm" c="dimmed">
                    {formatDateKey(day.date, locale)}
                  </Text>
                </>
              ),
            },
            {
              header: t('availability.intervals'),
              cell: (day) => {
                const intervals = hours[day.date] ?? [];
                const label = dayLabel(day.date);
                const overlap = overlapDays.has(day.date);
                return (
                  <Stack gap="xs">
                    {intervals.length === 0 && (
                      <Text size="sm" c="dimmed">
                        {t('availability.day_off')}
                      </Text>
                    )}
                    {intervals.map((interval, index) => (
                      <Group key={index} gap="xs" wrap="nowrap">
                        <NativeSelect
                          size="xs"
                          aria-label={t('availability.start_of', { index: index + 1, day: label })}
                          data={optionsWith(
                            times.filter((time) => time !== '24:00'),
                            interval.start,
                          )}
                          value={interval.start}
                          onChange={(event) => changeTime(day.date, index, 'start', event.currentTarget.value)}
                          aria-invalid={overlap}
                          styles={overlap ? OVERLAP_STYLES : undefined}
                        />
                        <Text size="sm" aria-hidden>
                          –
                        </Text>
                        <NativeSelect
                          size="xs"
                          aria-label={t('availability.end_of', { index: index + 1, day: label })}
                          data={optionsWith(times, interval.end)}
                          value={interval.end}
                          onChange={(event) => changeTime(day.date, index, 'end', event.currentTarget.value)}
                          aria-invalid={overlap}
                          styles={overlap ? OVERLAP_STYLES : undefined}
                        />
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => void removeInterval(day.date, index)}
                          aria-label={t('availability.remove_interval_named', {
                            start: interval.start,
                            end: interval.end,
                            day: label,
                          })}
                        >
                          {t('availability.remove_interval')}
                        </Button>
                      </Group>
                    ))}
                    {overlap && (
                      <Text size="sm" c="red.9" fw={600} role="alert">
                        {t('validation.overlap')}
                      </Text>
                    )}
                  </Stack>
                );
              },
            },
          ]}
          actions={{
            header: t('availability.actions'),
            cell: (day) => (
              <Button
                size="xs"
                variant="light"
                onClick={() => addInterval(day.date)}
                disabled={nextDefaultInterval(hours[day.date] ?? []) === null}
                aria-label={t('availability.add_interval_on', { day: dayLabel(day.date) })}
              >
                {t('availability.add_interval')}
              </Button>
            ),
          }}
          minWidth={620}
        />
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Button onClick={() => void save()} loading={saving} disabled={!dirty}>
              {t('common.save')}
            </Button>
            <Button variant="default" onClick={cancel} disabled={!dirty || saving}>
              {t('common.cancel')}
            </Button>
            {dirty && (
              <Text size="sm" c="dimmed" fs="italic">
                {t('availability.unsaved')}
              </Text>
            )}
          </Group>
          <Button variant="light" onClick={() => void applyEveryWeek()} disabled={saving}>
            {t('availability.use_every_week')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The selectable times, plus the current value if the list lacks it (hours set elsewhere, e.g. 09:15). */
function optionsWith(times: string[], value: string): string[] {
  return times.includes(value) ? times : [...times, value].sort();
}
