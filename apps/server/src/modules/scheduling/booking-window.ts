import { SCHEDULING_WINDOW_MONTHS } from '@vetcall/shared/constants';
import { lastBookableDate, latestTodayKey } from '@vetcall/shared/dates';
import { AppError } from '../../errors.ts';
import type { Actor } from '../auth/auth.service.ts';

/**
 * The booking window (docs/product-rules.md#validation): customers book from today to one month ahead.
 * "Today" is the latest date anywhere on Earth (UTC+14), so no customer's own today is refused; the last
 * date is compared with the date the slot has in the customer's or vet's zone.
 */
export function lastBookableDateKey(now: Date): string {
  return lastBookableDate(latestTodayKey(now), SCHEDULING_WINDOW_MONTHS);
}

export const beyondBookingWindow = (field: string) =>
  new AppError('validation_failed', 400, {
    message: `Appointments can be booked at most ${SCHEDULING_WINDOW_MONTHS} month ahead.`,
    fields: { [field]: 'too_big' },
  });

/** Refuses a customer's date after the window's last date; vets and managers see further ahead. */
export function assertBookableDate(actor: Pick<Actor, 'type'>, dateKey: string, now: Date, field: string): void {
  if (actor.type === 'customer' && dateKey > lastBookableDateKey(now)) throw beyondBookingWindow(field);
}
