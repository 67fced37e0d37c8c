import { describe, expect, it } from 'vitest';
import {
  type AvailabilityProfile,
  type BusyRange,
  type DateIntervals,
  type FreeSlot,
  type WorkingInterval,
  availabilityWeeks,
  findFreeSlots,
  hasFreeSlotOnViewerDate,
  nextDefaultInterval,
  validateDayIntervals,
} from './slots.ts';
import { zonedWallTimeToInstant } from './zoned-time.ts';

const MINUTE = 60_000;
const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];
const NINE_TO_FIVE: WorkingInterval[] = [{ start: '09:00', end: '17:00' }];

function profile(
  timezone: string,
  intervals: WorkingInterval[],
  options: Partial<Pick<AvailabilityProfile, 'durationMinutes' | 'availabilityStep' | 'timeAvailableFor'>> & {
    days?: number[];
    overrides?: DateIntervals[];
  } = {},
): AvailabilityProfile {
  return {
    durationMinutes: options.durationMinutes ?? 30,
    availabilityStep: options.availabilityStep ?? options.durationMinutes ?? 30,
    timeAvailableFor: options.timeAvailableFor ?? 'P10W',
    workHours: {
      timezone,
      daySchedules: (options.days ?? ALL_DAYS).map((dayOfWeek) => ({ dayOfWeek, workingIntervals: intervals })),
    },
    availabilityIntervals: { intervals: options.overrides ?? [] },
  };
}

const busyRange = (start: string, end: string): BusyRange => ({ start: new Date(start), end: new Date(end) });
const localStarts = (slots: FreeSlot[]) => slots.map((slot) => slot.localStart);
const startsIso = (slots: FreeSlot[]) => slots.map((slot) => slot.start.toISOString());

/** Slots of one vet-zone date, with a clock well before it. */
function slotsOn(vet: AvailabilityProfile, dateKey: string, busy: BusyRange[] = []): FreeSlot[] {
  const now = new Date(Date.parse(`${dateKey}T00:00:00Z`) - 7 * 86_400_000);
  return findFreeSlots(vet, { now, busy, from: dateKey, to: dateKey });
}

const HALF_HOURS_9_TO_17 = Array.from({ length: 16 }, (_, i) => {
  const minutes = 9 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

describe('findFreeSlots on DST days (fixed clock)', () => {
  it.each([
    ['Europe/Lisbon', '2026-03-29', '2026-03-29T08:00:00.000Z'],
    ['Europe/Lisbon', '2026-10-25', '2026-10-25T09:00:00.000Z'],
    ['Atlantic/Azores', '2026-03-29', '2026-03-29T09:00:00.000Z'],
    ['Atlantic/Azores', '2026-10-25', '2026-10-25T10:00:00.000Z'],
    ['America/New_York', '2026-03-08', '2026-03-08T13:00:00.000Z'],
    ['America/New_York', '2026-11-01', '2026-11-01T14:00:00.000Z'],
    ['America/Sao_Paulo', '2026-03-29', '2026-03-29T12:00:00.000Z'],
    ['America/Sao_Paulo', '2026-11-01', '2026-11-01T12:00:00.000Z'],
    ['America/Sao_Paulo', '2018-11-04', '2018-11-04T11:00:00.000Z'],
  ])('%s %s: 09:00–17:00 is 16 half-hour slots 09:00…16:30 local', (zone, dateKey, firstStart) => {
    const slots = slotsOn(profile(zone, NINE_TO_FIVE), dateKey);
    expect(slots).toHaveLength(16);
    expect(localStarts(slots)).toEqual(HALF_HOURS_9_TO_17);
    expect(slots.every((slot) => slot.dateKey === dateKey)).toBe(true);
    expect(slots[0]!.start.toISOString()).toBe(firstStart);
    slots.forEach((slot, i) => {
      expect(slot.end.getTime() - slot.start.getTime()).toBe(30 * MINUTE);
      expect(slot.start.getTime() - slots[0]!.start.getTime()).toBe(i * 30 * MINUTE);
    });
  });

  it.each([
    // Spring forward: the interval lasts 2 real hours, one hourly slot less.
    ['Europe/Lisbon', '2026-03-29', ['00:00', '02:00']],
    ['Atlantic/Azores', '2026-03-29', ['01:00', '02:00']],
    ['America/New_York', '2026-03-08', ['00:00', '01:00']],
    ['America/Sao_Paulo', '2018-11-04', ['01:00', '02:00']],
    // Fall back: 4 real hours, one slot more, two starting at the same local time.
    ['Europe/Lisbon', '2026-10-25', ['00:00', '01:00', '01:00', '02:00']],
    ['Atlantic/Azores', '2026-10-25', ['00:00', '00:00', '01:00', '02:00']],
    ['America/New_York', '2026-11-01', ['00:00', '01:00', '01:00', '02:00']],
    // Ordinary days and Sao Paulo without DST: 3 slots.
    ['Europe/Lisbon', '2026-03-22', ['00:00', '01:00', '02:00']],
    ['Atlantic/Azores', '2026-10-18', ['00:00', '01:00', '02:00']],
    ['America/Sao_Paulo', '2026-11-01', ['00:00', '01:00', '02:00']],
  ])('%s %s: 00:00–03:00 in hourly slots gives %j', (zone, dateKey, expected) => {
    const slots = slotsOn(profile(zone, [{ start: '00:00', end: '03:00' }], { durationMinutes: 60 }), dateKey);
    expect(localStarts(slots)).toEqual(expected);
    for (let i = 1; i < slots.length; i += 1) {
      expect(slots[i]!.start.getTime() - slots[i - 1]!.start.getTime()).toBe(60 * MINUTE);
    }
  });

  it('Lisbon 2026-03-29: an interval inside the gap is empty; one starting in it begins after the jump', () => {
    expect(slotsOn(profile('Europe/Lisbon', [{ start: '01:00', end: '02:00' }]), '2026-03-29')).toEqual([]);
    const slots = slotsOn(profile('Europe/Lisbon', [{ start: '01:30', end: '03:00' }]), '2026-03-29');
    expect(localStarts(slots)).toEqual(['02:30']);
    expect(startsIso(slots)).toEqual(['2026-03-29T01:30:00.000Z']);
  });

  it('Lisbon 2026-03-29: intervals that the gap maps onto each other give sorted, unique slots', () => {
    const vet = profile('Europe/Lisbon', [
      { start: '00:00', end: '01:30' },
      { start: '02:00', end: '04:00' },
    ]);
    const slots = slotsOn(vet, '2026-03-29');
    expect(localStarts(slots)).toEqual(['00:00', '00:30', '02:00', '02:30', '03:00', '03:30']);
    expect(startsIso(slots)).toEqual([
      '2026-03-29T00:00:00.000Z',
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-03-29T02:00:00.000Z',
      '2026-03-29T02:30:00.000Z',
    ]);
  });

  it('an interval ending at 24:00 reaches the start of the next day, even when that midnight is skipped', () => {
    const slots = slotsOn(
      profile('Atlantic/Azores', [{ start: '22:00', end: '24:00' }], { durationMinutes: 60 }),
      '2026-03-28',
    );
    expect(localStarts(slots)).toEqual(['22:00', '23:00']);
    expect(slots.at(-1)!.end.toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('a clock on the transition day itself skips the slots already past', () => {
    // 09:10 WEST on the spring-forward day.
    const slots = findFreeSlots(profile('Europe/Lisbon', NINE_TO_FIVE), {
      now: new Date('2026-03-29T08:10:00Z'),
      busy: [],
      to: '2026-03-29',
    });
    expect(localStarts(slots)).toEqual(HALF_HOURS_9_TO_17.slice(1));
  });
});

describe('findFreeSlots: which dates and intervals', () => {
  const now = new Date('2026-03-02T00:00:00Z'); // Monday, before any slot of the day.

  it('uses the weekly pattern of each ISO weekday', () => {
    const vet = profile('Europe/Lisbon', [{ start: '09:00', end: '10:00' }], { days: [1, 3], durationMinutes: 60 });
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-02', to: '2026-03-08' });
    expect(slots.map((slot) => slot.dateKey)).toEqual(['2026-03-02', '2026-03-04']);
  });

  it('accepts weekday names as the stored profile spells them', () => {
    const vet: AvailabilityProfile = {
      ...profile('UTC', [], { durationMinutes: 60 }),
      workHours: {
        timezone: 'UTC',
        daySchedules: [
          { dayOfWeek: 'monday', workingIntervals: [{ start: '09:00', end: '10:00' }] },
          { dayOfWeek: 'sunday', workingIntervals: [{ start: '11:00', end: '12:00' }] },
        ],
      },
    };
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-02', to: '2026-03-08' });
    expect(slots.map((slot) => `${slot.dateKey} ${slot.localStart}`)).toEqual(['2026-03-02 09:00', '2026-03-08 11:00']);
  });

  it('combines several schedules for one weekday', () => {
    const vet: AvailabilityProfile = {
      ...profile('UTC', [], { durationMinutes: 60 }),
      workHours: {
        timezone: 'UTC',
        daySchedules: [
          { dayOfWeek: 1, workingIntervals: [{ start: '09:00', end: '10:00' }] },
          { dayOfWeek: 1, workingIntervals: [{ start: '14:00', end: '15:00' }] },
          { dayOfWeek: 8, workingIntervals: [{ start: '09:00', end: '10:00' }] },
          { dayOfWeek: 0, workingIntervals: [{ start: '09:00', end: '10:00' }] },
        ],
      },
    };
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-02', to: '2026-03-08' });
    expect(localStarts(slots)).toEqual(['09:00', '14:00']);
  });

  it('date-specific intervals replace the weekly pattern for that date only', () => {
    const vet = profile('Europe/Lisbon', NINE_TO_FIVE, {
      durationMinutes: 60,
      overrides: [{ dateStartInclusive: '2026-03-03', hours: [{ start: '14:00', end: '16:00' }] }],
    });
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-02', to: '2026-03-04' });
    expect(slots.filter((slot) => slot.dateKey === '2026-03-02')).toHaveLength(8);
    expect(localStarts(slots.filter((slot) => slot.dateKey === '2026-03-03'))).toEqual(['14:00', '15:00']);
    expect(slots.filter((slot) => slot.dateKey === '2026-03-04')).toHaveLength(8);
  });

  it('an entry with empty hours is a day off', () => {
    const vet = profile('Europe/Lisbon', NINE_TO_FIVE, {
      overrides: [{ dateStartInclusive: '2026-03-03', hours: [] }],
    });
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-02', to: '2026-03-04' });
    expect([...new Set(slots.map((slot) => slot.dateKey))]).toEqual(['2026-03-02', '2026-03-04']);
  });

  it('date-specific intervals open a day the pattern leaves free; several entries for a date combine', () => {
    const vet = profile('Europe/Lisbon', NINE_TO_FIVE, {
      days: [1],
      durationMinutes: 60,
      overrides: [
        { dateStartInclusive: '2026-03-07', hours: [{ start: '10:00', end: '11:00' }] },
        { dateStartInclusive: '2026-03-07', hours: [{ start: '12:00', end: '13:00' }] },
      ],
    });
    const slots = findFreeSlots(vet, { now, busy: [], from: '2026-03-03', to: '2026-03-08' });
    expect(slots.map((slot) => `${slot.dateKey} ${slot.localStart}`)).toEqual(['2026-03-07 10:00', '2026-03-07 12:00']);
  });

  it('cuts slots every step while start + duration fits in the interval', () => {
    const vet = profile('UTC', [{ start: '09:00', end: '10:30' }], { durationMinutes: 45, availabilityStep: 20 });
    expect(localStarts(slotsOn(vet, '2026-03-02'))).toEqual(['09:00', '09:20', '09:40']);
    const exact = profile('UTC', [{ start: '09:00', end: '10:30' }], { durationMinutes: 30, availabilityStep: 30 });
    expect(localStarts(slotsOn(exact, '2026-03-02'))).toEqual(['09:00', '09:30', '10:00']);
    const tooShort = profile('UTC', [{ start: '09:00', end: '09:20' }], { durationMinutes: 30 });
    expect(slotsOn(tooShort, '2026-03-02')).toEqual([]);
  });

  it('reports dateKey and localStart in the vet zone, whatever the clock', () => {
    const vet = profile('America/New_York', [{ start: '20:00', end: '21:00' }], { durationMinutes: 60 });
    const [slot] = slotsOn(vet, '2026-03-02');
    expect(slot).toEqual({
      start: new Date('2026-03-03T01:00:00Z'),
      end: new Date('2026-03-03T02:00:00Z'),
      dateKey: '2026-03-02',
      localStart: '20:00',
    });
  });
});

describe('findFreeSlots: window (today … timeAvailableFor, from/to)', () => {
  const daily = (timeAvailableFor: string, zone = 'Europe/Lisbon') =>
    profile(zone, [{ start: '09:00', end: '10:00' }], { durationMinutes: 60, timeAvailableFor });

  it('P10W is 70 dates from the vet-zone today, both ends included', () => {
    const slots = findFreeSlots(daily('P10W'), { now: new Date('2026-03-02T08:00:00Z'), busy: [] });
    expect(slots).toHaveLength(70);
    expect(slots[0]!.dateKey).toBe('2026-03-02');
    expect(slots.at(-1)!.dateKey).toBe('2026-05-10');
  });

  it('P1D is today only; P1W ends six days after today', () => {
    const now = new Date('2026-03-02T08:00:00Z');
    expect(findFreeSlots(daily('P1D'), { now, busy: [] }).map((slot) => slot.dateKey)).toEqual(['2026-03-02']);
    expect(findFreeSlots(daily('P1W'), { now, busy: [] }).at(-1)!.dateKey).toBe('2026-03-08');
  });

  it("today is the vet's date, not UTC's", () => {
    // 02:00Z on 2 March is still 1 March (21:00) in New York.
    const slots = findFreeSlots(daily('P1W', 'America/New_York'), { now: new Date('2026-03-02T02:00:00Z'), busy: [] });
    // Today is Sunday 1 March (its 09:00 is already past), so P1W ends on Saturday 7 March.
    expect(slots.map((slot) => slot.dateKey)).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
    ]);
  });

  it('from/to narrow the window but never widen it', () => {
    const now = new Date('2026-03-02T08:00:00Z');
    const vet = daily('P10W');
    expect(findFreeSlots(vet, { now, busy: [], from: '2026-03-10', to: '2026-03-12' }).map((s) => s.dateKey)).toEqual([
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
    ]);
    const wide = findFreeSlots(vet, { now, busy: [], from: '2026-01-01', to: '2026-12-31' });
    expect([wide[0]!.dateKey, wide.at(-1)!.dateKey, wide.length]).toEqual(['2026-03-02', '2026-05-10', 70]);
    expect(findFreeSlots(vet, { now, busy: [], from: '2026-03-12', to: '2026-03-10' })).toEqual([]);
  });

  it('skips slots starting before now, keeps one starting exactly now, and keeps the step grid', () => {
    const vet = profile('Europe/Lisbon', NINE_TO_FIVE, { timeAvailableFor: 'P1D' });
    const at = (instant: string) => localStarts(findFreeSlots(vet, { now: new Date(instant), busy: [] }));
    expect(at('2026-03-04T11:10:00Z')[0]).toBe('11:30');
    expect(at('2026-03-04T11:00:00Z')[0]).toBe('11:00');
    expect(at('2026-03-04T11:00:00.001Z')[0]).toBe('11:30');
    expect(at('2026-03-04T16:30:00.001Z')).toEqual([]);
    expect(at('2026-03-04T08:59:00Z')).toHaveLength(16);
  });
});

describe('findFreeSlots: busy ranges', () => {
  const vet = profile('UTC', [{ start: '09:00', end: '12:00' }], { durationMinutes: 30, availabilityStep: 15 });
  const on = (busy: BusyRange[]) => localStarts(slotsOn(vet, '2026-03-02', busy));

  it('removes every slot overlapping a booking or hold (half-open ranges)', () => {
    expect(on([busyRange('2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z')])).toEqual([
      '09:00',
      '09:15',
      '09:30', // 09:30–10:00 only touches the booking
      '10:30',
      '10:45',
      '11:00',
      '11:15',
      '11:30',
    ]);
  });

  it('a range touching a slot at either end does not block it; a one-millisecond overlap does', () => {
    expect(on([busyRange('2026-03-02T09:00:00Z', '2026-03-02T09:00:00Z')])).toHaveLength(11);
    expect(on([busyRange('2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z')])[0]).toBe('09:00');
    expect(on([busyRange('2026-03-02T11:59:59.999Z', '2026-03-02T13:00:00Z')]).at(-1)).toBe('11:15');
    expect(on([busyRange('2026-03-02T08:00:00Z', '2026-03-02T09:00:00.001Z')])[0]).toBe('09:15');
  });

  it('handles unsorted, nested and invalid ranges', () => {
    const busy = [
      busyRange('2026-03-02T11:00:00Z', '2026-03-02T11:10:00Z'),
      busyRange('2026-03-02T09:00:00Z', '2026-03-02T10:40:00Z'),
      busyRange('2026-03-02T09:20:00Z', '2026-03-02T09:30:00Z'),
      busyRange('2026-03-02T10:50:00Z', '2026-03-02T10:45:00Z'), // end before start: ignored
      { start: new Date(Number.NaN), end: new Date('2026-03-02T12:00:00Z') }, // invalid: ignored
    ];
    expect(on(busy)).toEqual(['11:15', '11:30']);
  });

  it('a range spanning the whole day leaves nothing', () => {
    expect(on([busyRange('2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z')])).toEqual([]);
  });
});

describe('findFreeSlots: invalid input', () => {
  const now = new Date('2026-03-02T00:00:00Z');
  it.each([
    ['unknown zone', profile('Nowhere/Land', NINE_TO_FIVE)],
    ['malformed time', profile('UTC', [{ start: '9:00', end: '17:00' }])],
    ['unsupported horizon', profile('UTC', NINE_TO_FIVE, { timeAvailableFor: 'P1Y' })],
    ['zero duration', profile('UTC', NINE_TO_FIVE, { durationMinutes: 0 })],
    ['fractional step', profile('UTC', NINE_TO_FIVE, { availabilityStep: 7.5 })],
    [
      'malformed override date',
      profile('UTC', NINE_TO_FIVE, { overrides: [{ dateStartInclusive: '2026-02-30', hours: [] }] }),
    ],
  ])('throws RangeError for %s', (_, vet) => {
    expect(() => findFreeSlots(vet, { now, busy: [] })).toThrow(RangeError);
  });

  it('throws RangeError for a malformed from/to or an invalid now', () => {
    const vet = profile('UTC', NINE_TO_FIVE);
    expect(() => findFreeSlots(vet, { now, busy: [], from: '2026-3-1' })).toThrow(RangeError);
    expect(() => findFreeSlots(vet, { now: new Date(Number.NaN), busy: [] })).toThrow(RangeError);
  });

  it('an interval whose end is not after its start gives no slot', () => {
    expect(slotsOn(profile('UTC', [{ start: '10:00', end: '09:00' }]), '2026-03-02')).toEqual([]);
  });
});

describe('hasFreeSlotOnViewerDate', () => {
  const now = new Date('2026-03-01T00:00:00Z');
  // Works only on Monday 2026-03-02, 09:00–11:00 Lisbon (= 09:00Z–11:00Z), 30-minute slots.
  const vet = profile('Europe/Lisbon', [{ start: '09:00', end: '11:00' }], { days: [1] });

  it('finds the slot on the viewer date it falls on', () => {
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Europe/Lisbon', { now, busy: [] })).toBe(true);
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-03', 'Europe/Lisbon', { now, busy: [] })).toBe(false);
    // UTC+14: 09:00Z is 23:00 on the 2nd, 10:00Z is 00:00 on the 3rd.
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Pacific/Kiritimati', { now, busy: [] })).toBe(true);
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-03', 'Pacific/Kiritimati', { now, busy: [] })).toBe(true);
    // UTC−11: the slot starts 09:00Z–10:30Z are 22:00–23:30 on the 1st.
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-01', 'Pacific/Pago_Pago', { now, busy: [] })).toBe(true);
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Pacific/Pago_Pago', { now, busy: [] })).toBe(false);
  });

  it('respects busy ranges, the clock and the horizon', () => {
    const busy = [busyRange('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z')];
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Pacific/Kiritimati', { now, busy })).toBe(false);
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-03', 'Pacific/Kiritimati', { now, busy })).toBe(true);
    const allDay = [busyRange('2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z')];
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Europe/Lisbon', { now, busy: allDay })).toBe(false);
    const late = new Date('2026-03-02T10:30:00.001Z');
    expect(hasFreeSlotOnViewerDate(vet, '2026-03-02', 'Europe/Lisbon', { now: late, busy: [] })).toBe(false);
    const shortHorizon = { ...vet, timeAvailableFor: 'P1D' };
    expect(hasFreeSlotOnViewerDate(shortHorizon, '2026-03-02', 'Europe/Lisbon', { now, busy: [] })).toBe(false);
    expect(hasFreeSlotOnViewerDate(vet, '2026-02-23', 'Europe/Lisbon', { now, busy: [] })).toBe(false);
  });

  it('agrees with findFreeSlots on DST days across zones', () => {
    const zones = ['Europe/Lisbon', 'Atlantic/Azores', 'America/Sao_Paulo', 'America/New_York'];
    const clock = new Date('2026-03-01T00:00:00Z');
    for (const vetZone of zones) {
      const dstVet = profile(
        vetZone,
        [
          { start: '00:00', end: '03:00' },
          { start: '21:00', end: '24:00' },
        ],
        {
          durationMinutes: 60,
        },
      );
      const slots = findFreeSlots(dstVet, { now: clock, busy: [], to: '2026-04-05' });
      for (const viewerZone of zones) {
        for (const dateKey of ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-28', '2026-03-29', '2026-03-30']) {
          const dayStart = zonedWallTimeToInstant(dateKey, '00:00', viewerZone).getTime();
          const dayEnd = zonedWallTimeToInstant(dateKey, '24:00', viewerZone).getTime();
          const expected = slots.some((slot) => slot.start.getTime() >= dayStart && slot.start.getTime() < dayEnd);
          expect(
            hasFreeSlotOnViewerDate(dstVet, dateKey, viewerZone, { now: clock, busy: [] }),
            `${vetZone} ${viewerZone} ${dateKey}`,
          ).toBe(expected);
        }
      }
    }
  });
});

describe('validateDayIntervals (docs/product-rules.md#validation)', () => {
  const day = (...pairs: [string, string][]) => pairs.map(([start, end]) => ({ start, end }));

  it('accepts no intervals, separate intervals and touching intervals', () => {
    expect(validateDayIntervals([])).toEqual({ ok: true });
    expect(validateDayIntervals(day(['09:00', '12:00'], ['12:00', '13:00'], ['14:00', '24:00']))).toEqual({ ok: true });
    expect(validateDayIntervals(day(['14:00', '18:00'], ['09:00', '13:00']))).toEqual({ ok: true });
  });

  it('requires the end later than the start', () => {
    expect(validateDayIntervals(day(['09:00', '12:00'], ['13:00', '13:00']))).toEqual({
      ok: false,
      code: 'end_before_start',
      index: 1,
    });
    expect(validateDayIntervals(day(['17:00', '09:00']))).toEqual({ ok: false, code: 'end_before_start', index: 0 });
  });

  it('refuses overlaps, naming the interval that starts inside another', () => {
    expect(validateDayIntervals(day(['11:00', '13:00'], ['09:00', '12:00']))).toEqual({
      ok: false,
      code: 'overlap',
      index: 0,
    });
    expect(validateDayIntervals(day(['09:00', '18:00'], ['10:00', '11:00']))).toEqual({
      ok: false,
      code: 'overlap',
      index: 1,
    });
    expect(validateDayIntervals(day(['09:00', '10:00'], ['09:00', '11:00']))).toEqual({
      ok: false,
      code: 'overlap',
      index: 1,
    });
    // Contained in the first, not overlapping the second.
    expect(validateDayIntervals(day(['08:00', '18:00'], ['09:00', '10:00'], ['12:00', '13:00']))).toMatchObject({
      ok: false,
      code: 'overlap',
    });
  });

  it('throws RangeError for malformed times', () => {
    expect(() => validateDayIntervals(day(['9:00', '10:00']))).toThrow(RangeError);
  });
});

describe('nextDefaultInterval (docs/product-rules.md#validation)', () => {
  it('is 09:00–17:00 for an empty day', () => {
    expect(nextDefaultInterval([])).toEqual({ start: '09:00', end: '17:00' });
  });

  it('starts one hour after the latest end and lasts one hour', () => {
    expect(nextDefaultInterval([{ start: '09:00', end: '17:00' }])).toEqual({ start: '18:00', end: '19:00' });
    expect(
      nextDefaultInterval([
        { start: '14:00', end: '15:30' },
        { start: '09:00', end: '13:00' },
      ]),
    ).toEqual({ start: '16:30', end: '17:30' });
    expect(nextDefaultInterval([{ start: '20:00', end: '22:00' }])).toEqual({ start: '23:00', end: '24:00' });
    expect(nextDefaultInterval([{ start: '20:00', end: '22:30' }])).toEqual({ start: '23:30', end: '24:00' });
  });

  it('is null when the latest end is in hour 23 or is 24:00', () => {
    expect(nextDefaultInterval([{ start: '20:00', end: '23:00' }])).toBeNull();
    expect(nextDefaultInterval([{ start: '20:00', end: '23:59' }])).toBeNull();
    expect(nextDefaultInterval([{ start: '20:00', end: '24:00' }])).toBeNull();
  });
});

describe('availabilityWeeks (docs/product-rules.md#entities)', () => {
  it('gives ten ISO weeks from the Monday of the current week', () => {
    const weeks = availabilityWeeks('2026-11-18');
    expect(weeks).toHaveLength(10);
    expect(weeks[0]).toEqual({
      number: 202647,
      date_start: '2026-11-16',
      date_end: '2026-11-22',
      days: [
        { date: '2026-11-16', weekday: 1 },
        { date: '2026-11-17', weekday: 2 },
        { date: '2026-11-18', weekday: 3 },
        { date: '2026-11-19', weekday: 4 },
        { date: '2026-11-20', weekday: 5 },
        { date: '2026-11-21', weekday: 6 },
        { date: '2026-11-22', weekday: 7 },
      ],
    });
    expect(weeks.map((week) => week.number)).toEqual([
      202647, 202648, 202649, 202650, 202651, 202652, 202653, 202701, 202702, 202703,
    ]);
    expect(weeks[9]!.date_end).toBe('2027-01-24');
  });

  it('uses the ISO week-numbering year at year ends', () => {
    expect(availabilityWeeks('2024-12-31', 1)[0]).toMatchObject({ number: 202501, date_start: '2024-12-30' });
    expect(availabilityWeeks('2021-01-03', 2).map((week) => [week.number, week.date_start])).toEqual([
      [202053, '2020-12-28'],
      [202101, '2021-01-04'],
    ]);
  });

  it('a Monday starts its own week and a Sunday belongs to the week before', () => {
    expect(availabilityWeeks('2026-03-02', 1)[0]!.date_start).toBe('2026-03-02');
    expect(availabilityWeeks('2026-03-08', 1)[0]!.date_start).toBe('2026-03-02');
    expect(availabilityWeeks('2026-03-02', 0)).toEqual([]);
  });
});
