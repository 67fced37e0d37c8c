import { addDaysToDateKey, isoWeekday } from '@vetcall/shared/scheduling/zoned-time';

/** 'YYYY-MM' of a date key. */
export const monthOf = (dateKey: string) => dateKey.slice(0, 7);

/** The first and last dates of a month ('YYYY-MM'). */
export function monthBounds(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const days = new Date(Date.UTC(year, monthNumber, 0)).getUTCDate();
  return { first: `${month}-01`, last: `${month}-${String(days).padStart(2, '0')}` };
}

/** The month before or after ('YYYY-MM'). */
export function shiftMonth(month: string, by: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const date = new Date(Date.UTC(year, monthNumber - 1 + by, 1));
  return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** A month laid out in ISO weeks (Monday first); dates of other months are null. */
export function monthWeeks(month: string): (string | null)[][] {
  const { first, last } = monthBounds(month);
  const weeks: (string | null)[][] = [];
  let week: (string | null)[] = Array.from({ length: isoWeekday(first) - 1 }, () => null);
  for (let date = first; date <= last; date = addDaysToDateKey(date, 1)) {
    week.push(date);
    if (week.length === 7) {
      weeks.push(week);
      week = [];
    }
  }
  if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
  return weeks;
}
