import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ageBetween, isValidDateKey, latestTodayKey, todayKey } from './dates.ts';

describe('isValidDateKey', () => {
  it.each(['2024-02-29', '1950-01-01', '2030-12-31', '2000-02-29'])('accepts %s', (value) => {
    expect(isValidDateKey(value)).toBe(true);
  });

  it.each(['2023-02-29', '1900-02-29', '2024-04-31', '2024-13-01', '2024-00-01', '2024-01-00', '2024-1-01', '', 'x'])(
    'refuses %j',
    (value) => {
      expect(isValidDateKey(value)).toBe(false);
    },
  );

  it('takes years 0001 to 9999 but not 0000, which PostgreSQL does not have', () => {
    expect(isValidDateKey('0001-01-01')).toBe(true);
    expect(isValidDateKey('9999-12-31')).toBe(true);
    expect(isValidDateKey('0000-01-01')).toBe(false);
  });

  it('agrees with the calendar of Date for any YYYY-MM-DD text', () => {
    const pad = (n: number, width: number) => String(n).padStart(width, '0');
    const byDate = (key: string) => {
      const date = new Date(`${key}T00:00:00Z`);
      return !key.startsWith('0000') && !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === key;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer({ min: 0, max: 99 }),
        (y, m, d) => {
          const key = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          expect(isValidDateKey(key)).toBe(byDate(key));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

describe('todayKey and latestTodayKey', () => {
  it('gives the date in a time zone (UTC by default)', () => {
    const now = new Date('2030-06-15T23:30:00Z');
    expect(todayKey(now)).toBe('2030-06-15');
    expect(todayKey(now, 'Europe/Lisbon')).toBe('2030-06-16');
    expect(todayKey(now, 'America/Sao_Paulo')).toBe('2030-06-15');
  });

  it('latestTodayKey is the date in UTC+14, switching at 10:00 UTC', () => {
    expect(latestTodayKey(new Date('2030-06-15T09:59:59.999Z'))).toBe('2030-06-15');
    expect(latestTodayKey(new Date('2030-06-15T10:00:00Z'))).toBe('2030-06-16');
    expect(latestTodayKey(new Date('2030-12-31T10:00:00Z'))).toBe('2031-01-01');
  });
});

describe('ageBetween (a pet’s computed age, docs/product-rules.md#pet-records)', () => {
  it.each([
    // same day
    ['2020-05-17', '2020-05-17', 0, 0],
    // month boundaries: a month is complete only on the same day of the month
    ['2020-05-17', '2020-06-16', 0, 0],
    ['2020-05-17', '2020-06-17', 0, 1],
    ['2020-05-17', '2020-07-16', 0, 1],
    // year boundaries: the birthday completes the year
    ['2020-05-17', '2021-05-16', 0, 11],
    ['2020-05-17', '2021-05-17', 1, 0],
    ['2020-05-17', '2026-05-18', 6, 0],
    ['2020-05-17', '2026-04-17', 5, 11],
    // across the new year
    ['2019-12-31', '2020-01-01', 0, 0],
    ['2019-12-15', '2020-01-15', 0, 1],
    ['2019-11-30', '2021-01-29', 1, 1],
    // birth on the 31st: a month completes on the next month's day ≥ 31, i.e. the next month start
    ['2020-01-31', '2020-02-29', 0, 0],
    ['2020-01-31', '2020-03-01', 0, 1],
    ['2020-01-31', '2020-03-31', 0, 2],
    // floor date
    ['1950-01-01', '2030-06-15', 80, 5],
  ])('born %s, on %s: %i years %i months', (birth, on, years, months) => {
    expect(ageBetween(birth, on)).toEqual({ years, months });
  });

  describe('born on 29 February', () => {
    it.each([
      ['2024-02-29', '2025-02-28', 0, 11],
      ['2024-02-29', '2025-03-01', 1, 0],
      ['2024-02-29', '2027-02-28', 2, 11],
      ['2024-02-29', '2027-03-01', 3, 0],
      ['2024-02-29', '2028-02-28', 3, 11],
      ['2024-02-29', '2028-02-29', 4, 0],
      ['2024-02-29', '2024-03-29', 0, 1],
      ['2024-02-29', '2024-03-28', 0, 0],
    ])('born %s, on %s: %i years %i months', (birth, on, years, months) => {
      expect(ageBetween(birth, on)).toEqual({ years, months });
    });
  });

  it('never answers a negative age (a birth after the date counts as 0)', () => {
    expect(ageBetween('2030-06-16', '2030-06-15')).toEqual({ years: 0, months: 0 });
    expect(ageBetween('2031-01-01', '2030-06-15')).toEqual({ years: 0, months: 0 });
  });
});
