/**
 * Dates and files the booking journeys share. The demo vet works weekdays in Lisbon, and the demo's
 * confirmed appointment sits on the next working day, so journeys book at least two days ahead.
 */

/** The date of the next `weekday` (0 Sunday … 6 Saturday) two to eight days ahead in Lisbon, 'YYYY-MM-DD'. */
export function lisbonWeekdayAhead(weekday: number): string {
  const today = new Date(new Date().toLocaleString('en-US', { timeZone: 'Europe/Lisbon' }));
  let days = (weekday - today.getDay() + 7) % 7;
  if (days < 2) days += 7;
  return new Date(Date.UTC(today.getFullYear(), today.getMonth(), today.getDate() + days)).toISOString().slice(0, 10);
}

/** A 1×1 PNG: a customer's photo of the pet. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
