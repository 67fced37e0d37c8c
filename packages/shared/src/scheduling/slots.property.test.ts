/**
 * Property tests of the slot engine against a brute-force reference written independently of it: the
 * reference finds wall-time instants by testing candidate instants with its own Intl formatter (no offset
 * arithmetic), resolves DST gaps by locating the clock jump minute by minute, and walks every minute of the
 * window in real time to decide which minutes start a free slot.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AvailabilityProfile,
  type BusyRange,
  type FreeSlot,
  findFreeSlots,
  hasFreeSlotOnViewerDate,
} from './slots.ts';

const MIN = 60_000;
const DAY = 86_400_000;
const ZONES = ['Europe/Lisbon', 'Atlantic/Azores', 'America/Sao_Paulo', 'America/New_York'] as const;
const VIEWER_ZONES = [...ZONES, 'UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
/** Dates around which each scenario is built: DST changes of each zone, plus an ordinary summer day. */
const ANCHORS: Record<(typeof ZONES)[number], string[]> = {
  'Europe/Lisbon': ['2026-03-29', '2026-10-25', '2026-06-15'],
  'Atlantic/Azores': ['2026-03-29', '2026-10-25', '2026-06-15'],
  'America/New_York': ['2026-03-08', '2026-11-01', '2026-06-15'],
  'America/Sao_Paulo': ['2018-11-04', '2019-02-17', '2026-03-29'],
};
const HORIZONS = ['P1D', 'P2D', 'P3D', 'P1W', 'P10W', 'P1M'];
const NUM_RUNS = 200;

// ---------------------------------------------------------------------------------------------------------
// Reference (independent of zoned-time.ts and slots.ts)
// ---------------------------------------------------------------------------------------------------------

const referenceFormatters = new Map<string, Intl.DateTimeFormat>();
const wallCache = new Map<string, Map<number, number>>();

/** Wall time (ms "as UTC") shown in `zone` at the start of epoch minute `minute`. */
function wallOfMinute(zone: string, minute: number): number {
  let cache = wallCache.get(zone);
  if (cache === undefined) wallCache.set(zone, (cache = new Map()));
  const hit = cache.get(minute);
  if (hit !== undefined) return hit;
  let formatter = referenceFormatters.get(zone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    referenceFormatters.set(zone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(minute * MIN)) parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!);
  cache.set(minute, wall);
  return wall;
}

/** Instants (ms) at which `zone` shows wall time `wall`, searched among offsets of −14 h … +14 h. */
function instantsShowing(zone: string, wall: number): number[] {
  const found: number[] = [];
  for (let quarter = -56; quarter <= 56; quarter += 1) {
    const minute = wall / MIN - quarter * 15;
    if (wallOfMinute(zone, minute) === wall) found.push(minute * MIN);
  }
  return found;
}

/** Reference wall → instant: earliest instant showing it; in a gap, the wall time moved forward by the gap. */
function referenceInstant(zone: string, day: number, minutes: number): number {
  const wall = day * DAY + minutes * MIN;
  const direct = instantsShowing(zone, wall);
  if (direct.length > 0) return Math.min(...direct);
  for (let minute = wall / MIN - 16 * 60; minute <= wall / MIN + 16 * 60; minute += 1) {
    const before = wallOfMinute(zone, minute - 1);
    const after = wallOfMinute(zone, minute);
    if (before < wall && after > wall) {
      const gap = after - before - MIN;
      const moved = instantsShowing(zone, wall + gap);
      if (moved.length > 0) return Math.min(...moved);
    }
  }
  throw new Error(`reference: no instant for ${zone} ${new Date(wall).toISOString()}`);
}

const dayOf = (dateKey: string) => Date.parse(`${dateKey}T00:00:00Z`) / DAY;
const keyOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function referenceHorizonEnd(today: number, duration: string): number {
  const count = Number(duration.slice(1, -1));
  const unit = duration.at(-1);
  if (unit === 'D') return today + count - 1;
  if (unit === 'W') return today + 7 * count - 1;
  const date = new Date(today * DAY);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + count;
  const lastDayOfMonth = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDayOfMonth)) / DAY - 1;
}

interface RealInterval {
  start: number;
  end: number;
}

/** Working intervals of a vet-zone date as instants. */
function referenceIntervals(vet: AvailabilityProfile, day: number): RealInterval[] {
  const key = keyOf(day);
  const overrides = vet.availabilityIntervals.intervals.filter((entry) => entry.dateStartInclusive === key);
  const weekday = ((new Date(day * DAY).getUTCDay() + 6) % 7) + 1;
  const wall =
    overrides.length > 0
      ? overrides.flatMap((entry) => entry.hours)
      : vet.workHours.daySchedules.filter((s) => s.dayOfWeek === weekday).flatMap((s) => s.workingIntervals);
  const zone = vet.workHours.timezone;
  return wall
    .map((interval) => [minutesOf(interval.start), minutesOf(interval.end)] as const)
    .filter(([start, end]) => end > start)
    .map(([start, end]) => ({ start: referenceInstant(zone, day, start), end: referenceInstant(zone, day, end) }));
}

function referenceWindow(vet: AvailabilityProfile, now: number, from?: string, to?: string): [number, number] {
  const today = Math.floor(wallOfMinute(vet.workHours.timezone, Math.floor(now / MIN)) / DAY);
  const first = Math.max(today, from === undefined ? -Infinity : dayOf(from));
  const last = Math.min(referenceHorizonEnd(today, vet.timeAvailableFor), to === undefined ? Infinity : dayOf(to));
  return [first, last];
}

/** Starts (ms) of the free slots, by walking every minute of the window in real time. */
function referenceSlotStarts(vet: AvailabilityProfile, scenario: Scenario): number[] {
  const [first, last] = referenceWindow(vet, scenario.now, scenario.from, scenario.to);
  if (first > last) return [];
  const intervals: RealInterval[] = [];
  for (let day = first; day <= last; day += 1) intervals.push(...referenceIntervals(vet, day));
  const zone = vet.workHours.timezone;
  const spanStart = referenceInstant(zone, first, 0) - 2 * 60 * MIN;
  const spanEnd = referenceInstant(zone, last + 1, 0) + 2 * 60 * MIN;
  const duration = vet.durationMinutes * MIN;
  const step = vet.availabilityStep * MIN;
  const starts: number[] = [];
  for (let t = spanStart; t <= spanEnd; t += MIN) {
    const onGrid = intervals.some((i) => t >= i.start && (t - i.start) % step === 0 && t + duration <= i.end);
    if (!onGrid || t < scenario.now) continue;
    if (scenario.busy.some((b) => b.end > b.start && b.start < t + duration && b.end > t)) continue;
    starts.push(t);
  }
  return starts;
}

// ---------------------------------------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------------------------------------

interface Scenario {
  vet: AvailabilityProfile;
  anchor: string;
  now: number;
  from?: string;
  to?: string;
  busy: { start: number; end: number }[];
}

/** Times biased towards the hours where clocks change, plus anything in the day. */
const minuteArb = fc.oneof(
  fc.integer({ min: 0, max: 1440 }),
  fc.constantFrom(0, 30, 60, 90, 120, 150, 180, 1320, 1380, 1410, 1440),
  fc.integer({ min: 0, max: 288 }).map((n) => n * 5),
);
/** Mostly well-formed intervals; sometimes end ≤ start, and intervals of one day may overlap. */
const intervalArb = fc.tuple(minuteArb, minuteArb, fc.boolean()).map(([a, b, ordered]) => {
  const [start, end] = ordered ? [Math.min(a, b), Math.max(a, b)] : [a, b];
  return { start: timeOf(Math.min(start, 1439)), end: timeOf(end) };
});
const dayIntervalsArb = fc.array(intervalArb, { maxLength: 3 });

const scenarioArb: fc.Arbitrary<Scenario> = fc
  .constantFrom(...ZONES)
  .chain((zone) =>
    fc.record({
      zone: fc.constant(zone),
      anchor: fc.constantFrom(...ANCHORS[zone]),
      durationMinutes: fc.constantFrom(15, 20, 30, 45, 60),
      availabilityStep: fc.integer({ min: 5, max: 60 }),
      timeAvailableFor: fc.constantFrom(...HORIZONS),
      weekly: fc.array(dayIntervalsArb, { minLength: 7, maxLength: 7 }),
      overrides: fc.array(fc.record({ offset: fc.integer({ min: -2, max: 3 }), hours: dayIntervalsArb }), {
        maxLength: 3,
      }),
      nowOffset: fc.integer({ min: -3 * DAY, max: 2 * DAY }),
      fromOffset: fc.option(fc.integer({ min: -3, max: 1 })),
      length: fc.option(fc.integer({ min: 0, max: 3 })),
      busy: fc.array(
        fc.record({
          startMinute: fc.oneof(
            fc.integer({ min: -3 * 1440, max: 4 * 1440 }),
            fc.integer({ min: -3 * 96, max: 4 * 96 }).map((n) => n * 15),
          ),
          lengthMinutes: fc.integer({ min: 1, max: 300 }),
          jitterMs: fc.oneof(fc.constant(0), fc.integer({ min: -MIN + 1, max: MIN - 1 })),
        }),
        { maxLength: 8 },
      ),
    }),
  )
  .map((r) => {
    const anchorDay = dayOf(r.anchor);
    const anchorMs = anchorDay * DAY;
    // A long horizon without `to` would make the reference slow: keep windows to a few days.
    const longHorizon = r.timeAvailableFor === 'P10W' || r.timeAvailableFor === 'P1M';
    const fromDay = r.fromOffset === null ? (longHorizon ? anchorDay - 3 : undefined) : anchorDay + r.fromOffset;
    const from = fromDay === undefined ? undefined : keyOf(fromDay);
    const to = r.length === null && !longHorizon ? undefined : keyOf((fromDay ?? anchorDay - 3) + (r.length ?? 3));
    const vet: AvailabilityProfile = {
      durationMinutes: r.durationMinutes,
      availabilityStep: r.availabilityStep,
      timeAvailableFor: r.timeAvailableFor,
      workHours: {
        timezone: r.zone,
        daySchedules: r.weekly.map((workingIntervals, i) => ({ dayOfWeek: i + 1, workingIntervals })),
      },
      availabilityIntervals: {
        intervals: r.overrides.map((o) => ({ dateStartInclusive: keyOf(anchorDay + o.offset), hours: o.hours })),
      },
    };
    const busy = r.busy.map((b) => {
      const start = anchorMs + b.startMinute * MIN + b.jitterMs;
      return { start, end: start + b.lengthMinutes * MIN };
    });
    return { vet, anchor: r.anchor, now: anchorMs + r.nowOffset, from, to, busy };
  });

function engine(scenario: Scenario): FreeSlot[] {
  const busy: BusyRange[] = scenario.busy.map((b) => ({ start: new Date(b.start), end: new Date(b.end) }));
  return findFreeSlots(scenario.vet, { now: new Date(scenario.now), busy, from: scenario.from, to: scenario.to });
}

// ---------------------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------------------

describe('findFreeSlots properties (random profiles, zones, clocks and bookings)', () => {
  it('(a) no slot overlaps a busy range', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        for (const slot of engine(scenario)) {
          const [start, end] = [slot.start.getTime(), slot.end.getTime()];
          expect(scenario.busy.some((b) => b.start < end && b.end > start)).toBe(false);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('(b) every slot lies inside a working interval of its date, on the step grid, with correct local parts', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const zone = scenario.vet.workHours.timezone;
        for (const slot of engine(scenario)) {
          const [start, end] = [slot.start.getTime(), slot.end.getTime()];
          expect(end - start).toBe(scenario.vet.durationMinutes * MIN);
          const intervals = referenceIntervals(scenario.vet, dayOf(slot.dateKey));
          const step = scenario.vet.availabilityStep * MIN;
          expect(intervals.some((i) => i.start <= start && end <= i.end && (start - i.start) % step === 0)).toBe(true);
          const wall = wallOfMinute(zone, start / MIN);
          expect(slot.dateKey).toBe(keyOf(Math.floor(wall / DAY)));
          expect(slot.localStart).toBe(timeOf((wall % DAY) / MIN));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('(c) no slot starts before now, and none lies outside today … horizon ∩ from … to', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const [first, last] = referenceWindow(scenario.vet, scenario.now, scenario.from, scenario.to);
        for (const slot of engine(scenario)) {
          expect(slot.start.getTime()).toBeGreaterThanOrEqual(scenario.now);
          expect(dayOf(slot.dateKey)).toBeGreaterThanOrEqual(first);
          expect(dayOf(slot.dateKey)).toBeLessThanOrEqual(last);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('(d) the slots are exactly those of a brute-force walk over every minute of the window', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const slots = engine(scenario);
        const expected = referenceSlotStarts(scenario.vet, scenario);
        expect(slots.length).toBe(expected.length);
        expect(slots.map((slot) => slot.start.getTime())).toEqual(expected);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('(e) slots are sorted by start and unique', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const starts = engine(scenario).map((slot) => slot.start.getTime());
        for (let i = 1; i < starts.length; i += 1) expect(starts[i]!).toBeGreaterThan(starts[i - 1]!);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('hasFreeSlotOnViewerDate agrees with findFreeSlots seen from the viewer zone', () => {
    fc.assert(
      fc.property(
        scenarioArb,
        fc.constantFrom(...VIEWER_ZONES),
        fc.integer({ min: -3, max: 4 }),
        (scenario, viewerZone, dayOffset) => {
          // The whole horizon (no from/to), so that every slot the viewer date could hold is known.
          const vet = {
            ...scenario.vet,
            timeAvailableFor: scenario.vet.timeAvailableFor.endsWith('D') ? scenario.vet.timeAvailableFor : 'P1W',
          };
          const busy = scenario.busy.map((b) => ({ start: new Date(b.start), end: new Date(b.end) }));
          const now = new Date(scenario.now);
          const slots = findFreeSlots(vet, { now, busy });
          const viewerDate = keyOf(dayOf(scenario.anchor) + dayOffset);
          const expected = slots.some((slot) => {
            const wall = wallOfMinute(viewerZone, Math.floor(slot.start.getTime() / MIN));
            return keyOf(Math.floor(wall / DAY)) === viewerDate;
          });
          expect(hasFreeSlotOnViewerDate(vet, viewerDate, viewerZone, { now, busy })).toBe(expected);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });
});
