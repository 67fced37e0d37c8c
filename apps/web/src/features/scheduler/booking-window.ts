import { SCHEDULING_WINDOW_MONTHS } from '@vetcall/shared/constants';

/** The last date a customer may book: one month from today (SPEC §5 Scheduling date). */
export function lastBookableDate(today: string): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + SCHEDULING_WINDOW_MONTHS, 1));
  const lastOfMonth = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastOfMonth));
  return target.toISOString().slice(0, 10);
}
