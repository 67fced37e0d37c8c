import { isValidDateKey } from '@vetcall/shared/dates';
import { APPOINTMENT_FILTER_FLOOR, DEFAULT_FILTER_DAYS } from '@vetcall/shared/schemas/appointment';
import { lastBookableDate } from '../scheduler/booking-window';

/**
 * The filter of the appointment lists (docs/product-rules.md#vet-screens, #manager-screens): a date range and, for
 * managers, a vet.
 */
export interface AppointmentFilter {
  from: string;
  to: string;
  /** A vet's user id, or '' for all vets. */
  vet: string;
}

export interface DateBounds {
  min: string;
  max: string;
}

/** A date key moved by whole days (calendar arithmetic in UTC, so no time-zone shift). */
export function addDays(key: string, days: number): string {
  const date = new Date(`${key}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** docs/product-rules.md#validation Appointment date filters: from 1950-01-01 up to one month from today. */
export function filterDateBounds(today: string): DateBounds {
  return { min: APPOINTMENT_FILTER_FLOOR, max: lastBookableDate(today) };
}

/** docs/product-rules.md#limits: the default window is 15 days either side of today. */
export function defaultFilter(today: string): AppointmentFilter {
  return { from: addDays(today, -DEFAULT_FILTER_DAYS), to: addDays(today, DEFAULT_FILTER_DAYS), vet: '' };
}

/** What is wrong with a filter's dates, as field error codes; empty when the list can be asked for. */
export function filterProblems(filter: AppointmentFilter, bounds: DateBounds): { from?: string; to?: string } {
  const problems: { from?: string; to?: string } = {};
  for (const field of ['from', 'to'] as const) {
    const value = filter[field];
    if (!value) problems[field] = 'required';
    else if (!isValidDateKey(value)) problems[field] = 'invalid_format';
    else if (value < bounds.min || value > bounds.max) problems[field] = 'out_of_range';
  }
  if (!problems.from && !problems.to && filter.from > filter.to) problems.to = 'before_from';
  return problems;
}

/** The {param} of GET /api/appointments/mngrecord/{param}: `<from>_<to>_<vet user id | all>`. */
export function mngrecordParam(filter: AppointmentFilter): string {
  return `${filter.from}_${filter.to}_${filter.vet || 'all'}`;
}
