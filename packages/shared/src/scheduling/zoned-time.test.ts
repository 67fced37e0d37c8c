import { describe, expect, it } from 'vitest';
import {
  MAX_HORIZON_DAYS,
  addDaysToDateKey,
  horizonDays,
  horizonEndDateKey,
  instantToZonedParts,
  isSupportedHorizon,
  isValidTimeZone,
  isoWeekday,
  minutesToTime,
  offsetMsAt,
  timeToMinutes,
  zonedWallTimeToInstant,
} from './zoned-time.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (dateKey: string, time: string, zone: string) => zonedWallTimeToInstant(dateKey, time, zone).toISOString();
const offsetHours = (instant: string, zone: string) => offsetMsAt(Date.parse(instant), zone) / HOUR;

describe('zonedWallTimeToInstant on ordinary days', () => {
  it.each([
    ['2026-01-15', '09:00', 'Europe/Lisbon', '2026-01-15T09:00:00.000Z'],
    ['2026-07-15', '09:00', 'Europe/Lisbon', '2026-07-15T08:00:00.000Z'],
    ['2026-01-15', '09:00', 'Atlantic/Azores', '2026-01-15T10:00:00.000Z'],
    ['2026-07-15', '09:00', 'Atlantic/Azores', '2026-07-15T09:00:00.000Z'],
    ['2026-01-15', '09:00', 'America/New_York', '2026-01-15T14:00:00.000Z'],
    ['2026-07-15', '09:00', 'America/New_York', '2026-07-15T13:00:00.000Z'],
    ['2026-07-15', '09:00', 'UTC', '2026-07-15T09:00:00.000Z'],
    ['2026-07-15', '09:00', 'GMT', '2026-07-15T09:00:00.000Z'],
    ['2026-07-15', '09:00', 'Asia/Kolkata', '2026-07-15T03:30:00.000Z'],
    ['2026-07-15', '09:00', 'Asia/Kathmandu', '2026-07-15T03:15:00.000Z'],
    ['2026-12-31', '23:59', 'Pacific/Kiritimati', '2026-12-31T09:59:00.000Z'],
  ])('%s %s in %s is %s', (dateKey, time, zone, expected) => {
    expect(iso(dateKey, time, zone)).toBe(expected);
  });

  it("'24:00' is 00:00 of the next day, across a month and a year end", () => {
    expect(iso('2026-01-31', '24:00', 'Europe/Lisbon')).toBe(iso('2026-02-01', '00:00', 'Europe/Lisbon'));
    expect(iso('2026-12-31', '24:00', 'America/New_York')).toBe('2027-01-01T05:00:00.000Z');
  });

  it('handles years before 100 and local mean time', () => {
    // Lisbon kept local mean time, UTC−0:36:45, until 1912.
    expect(iso('0001-01-01', '00:00', 'Europe/Lisbon')).toBe('0001-01-01T00:36:45.000Z');
    expect(iso('1900-06-01', '12:00', 'Europe/Lisbon')).toBe('1900-06-01T12:36:45.000Z');
  });

  it('refuses malformed input with RangeError', () => {
    expect(() => zonedWallTimeToInstant('2026-02-30', '09:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedWallTimeToInstant('2026-2-3', '09:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedWallTimeToInstant('2026-02-03', '9:00', 'UTC')).toThrow(RangeError);
    expect(() => zonedWallTimeToInstant('2026-02-03', '24:01', 'UTC')).toThrow(RangeError);
    expect(() => zonedWallTimeToInstant('2026-02-03', '12:60', 'UTC')).toThrow(RangeError);
    expect(() => zonedWallTimeToInstant('2026-02-03', '09:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('DST transitions (gap → forward by the gap, overlap → earlier instant)', () => {
  describe('Europe/Lisbon', () => {
    it('2026-03-29 spring forward 01:00 WET → 02:00 WEST at 01:00Z', () => {
      expect(iso('2026-03-29', '00:59', 'Europe/Lisbon')).toBe('2026-03-29T00:59:00.000Z');
      // 01:00–01:59 does not exist: read with the old offset (+00), shown as 02:00–02:59 WEST.
      expect(iso('2026-03-29', '01:00', 'Europe/Lisbon')).toBe('2026-03-29T01:00:00.000Z');
      expect(iso('2026-03-29', '01:30', 'Europe/Lisbon')).toBe('2026-03-29T01:30:00.000Z');
      expect(
        instantToZonedParts(zonedWallTimeToInstant('2026-03-29', '01:30', 'Europe/Lisbon'), 'Europe/Lisbon'),
      ).toEqual({ dateKey: '2026-03-29', time: '02:30', weekday: 7 });
      expect(iso('2026-03-29', '02:00', 'Europe/Lisbon')).toBe('2026-03-29T01:00:00.000Z');
      expect(iso('2026-03-29', '09:00', 'Europe/Lisbon')).toBe('2026-03-29T08:00:00.000Z');
      expect(iso('2026-03-29', '17:00', 'Europe/Lisbon')).toBe('2026-03-29T16:00:00.000Z');
    });

    it('2026-10-25 fall back 02:00 WEST → 01:00 WET at 01:00Z', () => {
      expect(iso('2026-10-25', '00:30', 'Europe/Lisbon')).toBe('2026-10-24T23:30:00.000Z');
      // 01:00–01:59 happens twice: the first (WEST) one.
      expect(iso('2026-10-25', '01:00', 'Europe/Lisbon')).toBe('2026-10-25T00:00:00.000Z');
      expect(iso('2026-10-25', '01:30', 'Europe/Lisbon')).toBe('2026-10-25T00:30:00.000Z');
      expect(iso('2026-10-25', '02:00', 'Europe/Lisbon')).toBe('2026-10-25T02:00:00.000Z');
      expect(iso('2026-10-25', '09:00', 'Europe/Lisbon')).toBe('2026-10-25T09:00:00.000Z');
    });
  });

  describe('Atlantic/Azores (changes at local midnight)', () => {
    it('2026-03-29: 00:00 −01 → 01:00 +00, so midnight does not exist', () => {
      expect(iso('2026-03-28', '23:59', 'Atlantic/Azores')).toBe('2026-03-29T00:59:00.000Z');
      expect(iso('2026-03-29', '00:00', 'Atlantic/Azores')).toBe('2026-03-29T01:00:00.000Z');
      expect(iso('2026-03-29', '00:30', 'Atlantic/Azores')).toBe('2026-03-29T01:30:00.000Z');
      expect(iso('2026-03-29', '01:00', 'Atlantic/Azores')).toBe('2026-03-29T01:00:00.000Z');
      expect(iso('2026-03-28', '24:00', 'Atlantic/Azores')).toBe('2026-03-29T01:00:00.000Z');
      expect(instantToZonedParts(new Date('2026-03-29T01:00:00Z'), 'Atlantic/Azores').time).toBe('01:00');
    });

    it('2026-10-25: 01:00 +00 → 00:00 −01, so 00:00–00:59 happens twice', () => {
      expect(iso('2026-10-25', '00:00', 'Atlantic/Azores')).toBe('2026-10-25T00:00:00.000Z');
      expect(iso('2026-10-25', '00:59', 'Atlantic/Azores')).toBe('2026-10-25T00:59:00.000Z');
      expect(iso('2026-10-25', '01:00', 'Atlantic/Azores')).toBe('2026-10-25T02:00:00.000Z');
      expect(instantToZonedParts(new Date('2026-10-25T01:00:00Z'), 'Atlantic/Azores')).toEqual({
        dateKey: '2026-10-25',
        time: '00:00',
        weekday: 7,
      });
    });
  });

  describe('America/New_York', () => {
    it('2026-03-08: 02:00 EST → 03:00 EDT at 07:00Z', () => {
      expect(iso('2026-03-08', '01:59', 'America/New_York')).toBe('2026-03-08T06:59:00.000Z');
      expect(iso('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
      expect(instantToZonedParts(new Date('2026-03-08T07:30:00Z'), 'America/New_York').time).toBe('03:30');
      expect(iso('2026-03-08', '03:00', 'America/New_York')).toBe('2026-03-08T07:00:00.000Z');
    });

    it('2026-11-01: 02:00 EDT → 01:00 EST at 06:00Z', () => {
      expect(iso('2026-11-01', '00:59', 'America/New_York')).toBe('2026-11-01T04:59:00.000Z');
      expect(iso('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
      expect(iso('2026-11-01', '02:00', 'America/New_York')).toBe('2026-11-01T07:00:00.000Z');
    });
  });

  describe('America/Sao_Paulo', () => {
    it('has no DST since 2019: −03:00 all through 2026', () => {
      for (const instant of [
        '2026-01-15T12:00:00Z',
        '2026-03-29T12:00:00Z',
        '2026-07-15T12:00:00Z',
        '2026-11-01T12:00:00Z',
      ]) {
        expect(offsetHours(instant, 'America/Sao_Paulo')).toBe(-3);
      }
      expect(iso('2026-11-01', '00:00', 'America/Sao_Paulo')).toBe('2026-11-01T03:00:00.000Z');
      expect(iso('2026-02-15', '00:00', 'America/Sao_Paulo')).toBe('2026-02-15T03:00:00.000Z');
    });

    it('2018-11-04: 00:00 −03 → 01:00 −02, so midnight did not exist', () => {
      expect(iso('2018-11-03', '23:59', 'America/Sao_Paulo')).toBe('2018-11-04T02:59:00.000Z');
      expect(iso('2018-11-04', '00:00', 'America/Sao_Paulo')).toBe('2018-11-04T03:00:00.000Z');
      expect(iso('2018-11-04', '00:30', 'America/Sao_Paulo')).toBe('2018-11-04T03:30:00.000Z');
      expect(instantToZonedParts(new Date('2018-11-04T03:30:00Z'), 'America/Sao_Paulo').time).toBe('01:30');
      expect(iso('2018-11-04', '01:00', 'America/Sao_Paulo')).toBe('2018-11-04T03:00:00.000Z');
    });

    it('2019-02-16: 00:00 −02 → 23:00 −03 of the day before, so 23:00–23:59 happened twice', () => {
      expect(iso('2019-02-16', '23:30', 'America/Sao_Paulo')).toBe('2019-02-17T01:30:00.000Z');
      expect(iso('2019-02-17', '00:00', 'America/Sao_Paulo')).toBe('2019-02-17T03:00:00.000Z');
    });
  });

  it('round-trips every quarter hour of the transition days through instantToZonedParts', () => {
    const days: [string, string][] = [
      ['Europe/Lisbon', '2026-03-29'],
      ['Europe/Lisbon', '2026-10-25'],
      ['Atlantic/Azores', '2026-03-29'],
      ['Atlantic/Azores', '2026-10-25'],
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['America/Sao_Paulo', '2018-11-04'],
    ];
    for (const [zone, dateKey] of days) {
      for (let minutes = 0; minutes < 1440; minutes += 15) {
        const time = minutesToTime(minutes);
        const instant = zonedWallTimeToInstant(dateKey, time, zone);
        const parts = instantToZonedParts(instant, zone);
        // Either the wall time exists and round-trips, or it is in the gap and moved forward by one hour.
        if (parts.time !== time) {
          expect(parts.dateKey).toBe(dateKey);
          expect(timeToMinutes(parts.time)).toBe(minutes + 60);
          expect(offsetMsAt(instant.getTime() - HOUR, zone)).not.toBe(offsetMsAt(instant.getTime(), zone));
        } else {
          expect(parts.dateKey).toBe(dateKey);
        }
      }
    }
  });
});

describe('instantToZonedParts', () => {
  it('gives the local date, time (seconds dropped) and ISO weekday', () => {
    expect(instantToZonedParts(new Date('2030-06-15T23:30:59Z'), 'Europe/Lisbon')).toEqual({
      dateKey: '2030-06-16',
      time: '00:30',
      weekday: 7,
    });
    expect(instantToZonedParts(new Date('2026-03-02T02:59:59.999Z'), 'America/Sao_Paulo')).toEqual({
      dateKey: '2026-03-01',
      time: '23:59',
      weekday: 7,
    });
    expect(instantToZonedParts(new Date('2026-03-02T03:00:00Z'), 'America/Sao_Paulo').weekday).toBe(1);
  });

  it('refuses an invalid date', () => {
    expect(() => instantToZonedParts(new Date(Number.NaN), 'UTC')).toThrow(RangeError);
  });
});

describe('instantToZonedParts reads the offset per half day, as Intl does instant by instant', () => {
  /** What Intl itself shows at an instant, formatted afresh: the reference the cached offsets must match. */
  function intlParts(epochMs: number, timeZone: string) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        weekday: 'short',
      })
        .formatToParts(epochMs)
        .map((part) => [part.type, part.value]),
    );
    const weekday = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1;
    return { dateKey: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, weekday };
  }

  // Two days around each change, every 7 minutes (so instants land on both sides of each change at odd
  // minutes), visited in a scrambled order so the half-day cache fills in any order.
  it.each([
    ['Europe/Lisbon', '2026-03-29T01:00:00Z'],
    ['Europe/Lisbon', '2026-10-25T01:00:00Z'],
    ['America/Sao_Paulo', '2018-11-04T03:00:00Z'],
    ['America/Sao_Paulo', '2019-02-17T02:00:00Z'],
    ['Atlantic/Azores', '2026-03-29T01:00:00Z'],
    ['America/New_York', '2026-11-01T06:00:00Z'],
  ])('in %s around %s', (timeZone, change) => {
    const around = Date.parse(change);
    const instants = Array.from({ length: (2 * 24 * 60) / 7 }, (_, i) => around - DAY + i * 7 * 60_000 + 13_000);
    const scrambled = instants.map((_, i) => instants[(i * 97) % instants.length]!);
    for (const epochMs of scrambled) {
      expect(instantToZonedParts(new Date(epochMs), timeZone), new Date(epochMs).toISOString()).toEqual(
        intlParts(epochMs, timeZone),
      );
    }
  });
});

describe('date keys', () => {
  it('addDaysToDateKey crosses months, leap days and years', () => {
    expect(addDaysToDateKey('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDaysToDateKey('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDaysToDateKey('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDaysToDateKey('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDaysToDateKey('2026-03-02', 69)).toBe('2026-05-10');
    expect(() => addDaysToDateKey('2026-03-02', 1.5)).toThrow(RangeError);
    expect(() => addDaysToDateKey('2026-13-02', 1)).toThrow(RangeError);
  });

  it('isoWeekday is 1 for Monday … 7 for Sunday', () => {
    expect(
      ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'].map(
        isoWeekday,
      ),
    ).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(isoWeekday('1970-01-01')).toBe(4);
    expect(isoWeekday('1969-12-28')).toBe(7);
  });

  it('timeToMinutes and minutesToTime', () => {
    expect(timeToMinutes('00:00')).toBe(0);
    expect(timeToMinutes('23:59')).toBe(1439);
    expect(timeToMinutes('24:00')).toBe(1440);
    expect(minutesToTime(1440)).toBe('24:00');
    expect(minutesToTime(545)).toBe('09:05');
    expect(() => timeToMinutes('24:30')).toThrow(RangeError);
    expect(() => minutesToTime(1441)).toThrow(RangeError);
  });
});

describe('isValidTimeZone', () => {
  it.each(['Europe/Lisbon', 'Atlantic/Azores', 'America/Sao_Paulo', 'America/New_York', 'UTC', 'GMT', 'europe/lisbon'])(
    'accepts %s',
    (zone) => {
      expect(isValidTimeZone(zone)).toBe(true);
    },
  );

  it.each(['', 'Mars/Olympus', 'Europe/Lisbon ', 'Lisbon'])('refuses %j', (zone) => {
    expect(isValidTimeZone(zone)).toBe(false);
  });
});

describe('horizon durations', () => {
  it('P10W from a Monday ends on the Sunday of the tenth week (70 days, inclusive)', () => {
    expect(horizonDays('2026-03-02', 'P10W')).toBe(70);
    expect(horizonEndDateKey('2026-03-02', 'P10W')).toBe('2026-05-10');
  });

  it('days, weeks and combinations', () => {
    expect(horizonEndDateKey('2026-03-02', 'P1D')).toBe('2026-03-02');
    expect(horizonEndDateKey('2026-03-02', 'P30D')).toBe('2026-03-31');
    expect(horizonEndDateKey('2026-03-02', 'P1W')).toBe('2026-03-08');
    expect(horizonEndDateKey('2026-03-02', 'P1M1W1D')).toBe('2026-04-09');
    expect(horizonEndDateKey('2026-03-02', 'P0D')).toBe('2026-03-01');
  });

  it('months are calendar months, clamped to the end of a shorter month', () => {
    expect(horizonEndDateKey('2026-03-02', 'P1M')).toBe('2026-04-01');
    expect(horizonEndDateKey('2026-01-15', 'P2M')).toBe('2026-03-14');
    expect(horizonDays('2026-01-31', 'P1M')).toBe(28);
    expect(horizonEndDateKey('2026-01-31', 'P1M')).toBe('2026-02-27');
    expect(horizonDays('2024-01-31', 'P1M')).toBe(29);
    expect(horizonEndDateKey('2026-11-30', 'P2M')).toBe('2027-01-29');
  });

  it.each([
    '',
    'P',
    'P1Y',
    'PT1H',
    'P1DT1H',
    'p10w',
    'P-1D',
    'P1.5W',
    '10W',
    'P1D1W',
    'P1W1M',
    `P${MAX_HORIZON_DAYS + 1}D`,
    'P9999999999W',
  ])('refuses %j', (duration) => {
    expect(() => horizonEndDateKey('2026-03-02', duration)).toThrow(RangeError);
    expect(isSupportedHorizon(duration)).toBe(false);
  });

  it('isSupportedHorizon accepts what horizonEndDateKey accepts', () => {
    expect(['P10W', 'P30D', 'P2M', 'P1M2W3D'].every(isSupportedHorizon)).toBe(true);
  });
});
