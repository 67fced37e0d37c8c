import { describe, expect, it } from 'vitest';
import {
  browserWallTimeToInstant,
  customerDisplayZone,
  formatAppointmentTime,
  formatUtcOffset,
} from './appointment-time.ts';

describe('browserWallTimeToInstant (instant = wall time as UTC − timezone_diff)', () => {
  it.each([
    ['2026-01-20 10:00', -3 * 3600, '2026-01-20T13:00:00.000Z'], // São Paulo
    ['2026-07-20 10:00', 3600, '2026-07-20T09:00:00.000Z'], // Lisbon in summer
    ['2026-01-20 00:30', 0, '2026-01-20T00:30:00.000Z'],
    ['2026-01-01 02:00', 5.5 * 3600, '2025-12-31T20:30:00.000Z'], // India, across the year
    ['2026-12-31 23:59', -10 * 3600, '2027-01-01T09:59:00.000Z'], // Honolulu, across the year
  ])('%s at %d s is %s', (schedule, diff, expected) => {
    expect(browserWallTimeToInstant(schedule, diff)?.toISOString()).toBe(expected);
  });

  it.each(['2026-02-30 10:00', '2026-13-01 10:00', '2026-01-20 24:00', '2026-01-20T10:00', '20-01-2026 10:00'])(
    'refuses %s',
    (schedule) => {
      expect(browserWallTimeToInstant(schedule, 0)).toBeUndefined();
    },
  );
});

describe('customerDisplayZone', () => {
  const january = new Date('2026-01-10T12:00:00Z');

  it('takes the vet’s zone when it had the customer’s offset at booking time', () => {
    expect(
      customerDisplayZone({
        timezoneDiffSeconds: -3 * 3600,
        bookedAt: january,
        vetTimeZone: 'America/Sao_Paulo',
        country: 'PT',
      }),
    ).toEqual({ timeZone: 'America/Sao_Paulo' });
  });

  it('else a zone of the customer’s country with that offset', () => {
    const zone = (diff: number, country: string, vetTimeZone = 'America/Sao_Paulo') =>
      customerDisplayZone({ timezoneDiffSeconds: diff, bookedAt: january, vetTimeZone, country });
    expect(zone(0, 'PT')).toEqual({ timeZone: 'Europe/Lisbon' });
    expect(zone(-3600, 'pt')).toEqual({ timeZone: 'Atlantic/Azores' });
    expect(zone(-4 * 3600, 'BR')).toEqual({ timeZone: 'America/Manaus' });
    expect(zone(-5 * 3600, 'US')).toEqual({ timeZone: 'America/New_York' });
  });

  it('else only the offset', () => {
    expect(
      customerDisplayZone({
        timezoneDiffSeconds: 3600,
        bookedAt: january,
        vetTimeZone: 'Europe/Lisbon',
        country: 'US',
      }),
    ).toEqual({ offsetSeconds: 3600 });
    expect(
      customerDisplayZone({ timezoneDiffSeconds: 0, bookedAt: january, vetTimeZone: 'Not/AZone', country: '' }),
    ).toEqual({ offsetSeconds: 0 });
  });
});

describe('formatAppointmentTime', () => {
  it('shows a summer appointment booked in winter in summer time when the zone is known (DST)', () => {
    const zone = customerDisplayZone({
      timezoneDiffSeconds: 0,
      bookedAt: new Date('2026-01-10T12:00:00Z'),
      vetTimeZone: 'America/Sao_Paulo',
      country: 'PT',
    });
    const july = new Date('2026-07-20T14:00:00Z');
    expect(formatAppointmentTime(july, 'pt', zone)).toBe('segunda-feira, 20 de julho de 2026 às 15:00 (Europe/Lisbon)');
    // With the offset alone it would say 14:00.
    expect(formatAppointmentTime(july, 'pt', { offsetSeconds: 0 })).toBe(
      'segunda-feira, 20 de julho de 2026 às 14:00 (UTC+00:00)',
    );
  });

  it('writes 24-hour times in each language', () => {
    const instant = new Date('2026-01-20T21:30:00Z');
    expect(formatAppointmentTime(instant, 'en', { timeZone: 'Europe/Lisbon' })).toBe(
      'Tuesday, 20 January 2026 at 21:30 (Europe/Lisbon)',
    );
    expect(formatAppointmentTime(instant, 'pt-BR', { timeZone: 'America/Sao_Paulo' })).toBe(
      'terça-feira, 20 de janeiro de 2026 às 18:30 (America/Sao_Paulo)',
    );
    expect(formatAppointmentTime(instant, 'en', { offsetSeconds: 5.5 * 3600 })).toBe(
      'Wednesday, 21 January 2026 at 03:00 (UTC+05:30)',
    );
  });

  it('names offsets with a sign', () => {
    expect(formatUtcOffset(-3 * 3600)).toBe('UTC−03:00');
    expect(formatUtcOffset(0)).toBe('UTC+00:00');
    expect(formatUtcOffset(-9.5 * 3600)).toBe('UTC−09:30');
  });
});
