/** Date keys are YYYY-MM-DD (docs/product-rules.md#limits). */
export const DATE_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A real calendar date (proleptic Gregorian, years 0001–9999). Checked by arithmetic, not through a Date and
 * its ISO text: hot reads validate two or four of these per request.
 */
export function isValidDateKey(value: string): boolean {
  if (!DATE_KEY_PATTERN.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  // No year 0000: JavaScript reads it (1 BC) but PostgreSQL has no year 0 and refuses the date, a 500.
  if (year === 0 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Today's date key in a time zone (the viewer's, or UTC). */
export function todayKey(now: Date = new Date(), timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The latest date that is "today" somewhere on Earth (UTC+14), so a date chosen as today by a person
 * in any time zone is never refused by a server running in UTC.
 */
export function latestTodayKey(now: Date = new Date()): string {
  return todayKey(new Date(now.getTime() + 14 * 60 * 60 * 1000));
}

/** Whole years and months from a birth date key to a date key (for a pet's age). */
export function ageBetween(birth: string, on: string): { years: number; months: number } {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [oy, om, od] = on.split('-').map(Number) as [number, number, number];
  let months = (oy - by) * 12 + (om - bm);
  if (od < bd) months -= 1;
  months = Math.max(0, months);
  return { years: Math.floor(months / 12), months: months % 12 };
}

/**
 * The last date a customer may book: one month from `today` (a YYYY-MM-DD key), on the same day of the
 * month or the month's last day when it has fewer (31 January → 28 or 29 February).
 */
export function lastBookableDate(today: string, months = 1): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastOfMonth = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastOfMonth));
  return target.toISOString().slice(0, 10);
}
