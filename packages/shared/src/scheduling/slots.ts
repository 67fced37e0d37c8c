/**
 * The slot engine: which appointment slots a vet has free, computed from the vet's availability profile
 * (docs/product-rules.md#entities "Availability profile"), the bookings and holds that occupy the vet, and the clock.
 * Pure: no database, no HTTP, no reading of the system clock (`now` is a parameter).
 *
 * Rules (ARCHITECTURE §4 "Time"):
 * 1. Window: from the vet-zone date of `now` through `horizonEndDateKey(that date, timeAvailableFor)`
 *    (inclusive: start + N days − 1, so 'P10W' is 70 dates including today), intersected with the optional
 *    `from`/`to` date keys, which are vet-zone dates too.
 * 2. Intervals of a date: if `availabilityIntervals` has an entry for that date, its `hours` (an entry with
 *    empty hours is a day off; several entries for one date are combined); otherwise the weekly pattern's
 *    `workingIntervals` for the date's ISO weekday (several schedules for one weekday are combined).
 * 3. Each interval becomes the instants [zonedWallTimeToInstant(date, start), zonedWallTimeToInstant(date,
 *    end)) in the vet's zone ('24:00' is 00:00 of the next date). A 09:00–17:00 day therefore stays
 *    09:00–17:00 local on DST days; an interval that spans a transition lasts more or less real time (Lisbon
 *    00:00–03:00 lasts 2 h on 2026-03-29 and 4 h on 2026-10-25). Wall times in a gap move forward by the
 *    gap and wall times in an overlap take the earlier instant (see zoned-time.ts), so an interval lying
 *    entirely in a gap is empty.
 * 4. Slots are generated in REAL time from the interval's start instant every `availabilityStep` minutes,
 *    while start + `durationMinutes` ≤ the interval's end instant.
 * 5. A slot starting before `now` is dropped; so is a slot overlapping any busy range. All ranges are
 *    half-open [start, end): a booking ending at 10:00 does not block a slot starting at 10:00.
 * 6. The result is sorted by start with no repeated start (overlapping intervals cannot duplicate a slot).
 *
 * Busy ranges are the caller's job: every live booking and every unexpired hold of the vet.
 */
import { AVAILABILITY_WEEKS, DEFAULT_INTERVAL } from '../constants.ts';
import {
  type IsoWeekdayNumber,
  dateKeyToDayNumber,
  dayNumberToDateKey,
  dayNumberWeekday,
  horizonDays,
  minutesToTime,
  offsetMsAt,
  timeToMinutes,
  wallMsToInstant,
} from './zoned-time.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** More than any UTC offset plus any DST gap: a wall time's instant is within this of the wall time "as UTC". */
const OFFSET_BOUND_MS = 30 * 60 * MINUTE_MS;

export interface WorkingInterval {
  /** 'HH:MM', 00:00–23:59. */
  start: string;
  /** 'HH:MM', later than start; may be '24:00' (end of the day). */
  end: string;
}

/** Weekday names as the calendar provider's booking profiles spell them (schemas/availability.ts). */
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

export interface DaySchedule {
  /**
   * ISO weekday: 1 = Monday … 7 = Sunday, or its lowercase English name ('monday' … 'sunday', the stored
   * profile format). Other values never match a date.
   */
  dayOfWeek: number | WeekdayName;
  workingIntervals: readonly WorkingInterval[];
}

export interface DateIntervals {
  /** The date ('YYYY-MM-DD', vet's zone) whose intervals these are; they replace the weekly pattern. */
  dateStartInclusive: string;
  /** The intervals of that date; empty means a day off. */
  hours: readonly WorkingInterval[];
}

export interface AvailabilityProfile {
  /** Length of one appointment, in minutes (positive integer). */
  durationMinutes: number;
  /** Minutes between consecutive slot starts (positive integer). */
  availabilityStep: number;
  /** How far ahead the vet can be booked, an ISO-8601 duration of months/weeks/days ('P10W'). */
  timeAvailableFor: string;
  workHours: { timezone: string; daySchedules: readonly DaySchedule[] };
  availabilityIntervals: { intervals: readonly DateIntervals[] };
}

/** A time range that occupies the vet: a live booking or an unexpired hold. Half-open [start, end). */
export interface BusyRange {
  start: Date;
  end: Date;
}

export interface FreeSlot {
  start: Date;
  end: Date;
  /** Date of `start` in the vet's zone, 'YYYY-MM-DD'. */
  dateKey: string;
  /** Time of `start` in the vet's zone, 'HH:MM'. */
  localStart: string;
}

export interface SlotQuery {
  now: Date;
  busy: readonly BusyRange[];
  /** First vet-zone date to consider (inclusive); defaults to the vet's today. */
  from?: string;
  /** Last vet-zone date to consider (inclusive); defaults to the end of the horizon. */
  to?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Preparation (once per call)
// ---------------------------------------------------------------------------------------------------------

type MinuteInterval = readonly [startMinute: number, endMinute: number];

interface Prepared {
  timeZone: string;
  durationMs: number;
  stepMs: number;
  /** Index 1..7 (ISO weekday); index 0 unused. */
  weekly: MinuteInterval[][];
  overrides: Map<number, MinuteInterval[]>;
  busyStarts: Float64Array;
  /** busyMaxEnds[i] = the latest end among busy ranges 0..i (sorted by start). */
  busyMaxEnds: Float64Array;
  nowMs: number;
  /** Booking window as day numbers (days since 1970-01-01), inclusive. */
  firstDay: number;
  lastDay: number;
}

function toMinuteIntervals(intervals: readonly WorkingInterval[], into: MinuteInterval[]): void {
  for (const interval of intervals) into.push([timeToMinutes(interval.start), timeToMinutes(interval.end)]);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer: ${value}`);
  return value;
}

/**
 * Parses the profile and the busy ranges. Only busy ranges overlapping [clipStartMs, clipEndMs) are kept:
 * slots outside that range are never asked about, and sorting fewer ranges is what makes a per-date check
 * over many vets cheap.
 */
function prepare(
  profile: AvailabilityProfile,
  now: Date,
  busy: readonly BusyRange[],
  clipStartMs = -Infinity,
  clipEndMs = Infinity,
): Prepared {
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError('Invalid `now`');
  const timeZone = profile.workHours.timezone;
  const durationMs = positiveInteger(profile.durationMinutes, 'durationMinutes') * MINUTE_MS;
  const stepMs = positiveInteger(profile.availabilityStep, 'availabilityStep') * MINUTE_MS;

  const weekly: MinuteInterval[][] = [[], [], [], [], [], [], [], []];
  for (const schedule of profile.workHours.daySchedules) {
    const day = schedule.dayOfWeek;
    const weekday = typeof day === 'number' ? day : WEEKDAY_NAMES.indexOf(day) + 1;
    const target = weekday >= 1 ? weekly[weekday] : undefined;
    if (target !== undefined) toMinuteIntervals(schedule.workingIntervals, target);
  }
  const overrides = new Map<number, MinuteInterval[]>();
  for (const entry of profile.availabilityIntervals.intervals) {
    const day = dateKeyToDayNumber(entry.dateStartInclusive);
    let target = overrides.get(day);
    if (target === undefined) overrides.set(day, (target = []));
    toMinuteIntervals(entry.hours, target);
  }

  const ranges: [number, number][] = [];
  for (const range of busy) {
    const start = range.start.getTime();
    const end = range.end.getTime();
    // NaN fails every comparison, so invalid dates are dropped too.
    if (end > start && end > nowMs && end > clipStartMs && start < clipEndMs) ranges.push([start, end]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const busyStarts = new Float64Array(ranges.length);
  const busyMaxEnds = new Float64Array(ranges.length);
  let maxEnd = -Infinity;
  ranges.forEach(([start, end], i) => {
    busyStarts[i] = start;
    maxEnd = Math.max(maxEnd, end);
    busyMaxEnds[i] = maxEnd;
  });

  // Today in the vet's zone (also validates the zone: Intl throws RangeError for an unknown one).
  const firstDay = Math.floor((nowMs + offsetMsAt(nowMs, timeZone)) / DAY_MS);
  const lastDay = firstDay + horizonDays(dayNumberToDateKey(firstDay), profile.timeAvailableFor) - 1;
  return { timeZone, durationMs, stepMs, weekly, overrides, busyStarts, busyMaxEnds, nowMs, firstDay, lastDay };
}

/** Whether [start, end) overlaps any busy range. */
function isBusy(prepared: Prepared, start: number, end: number): boolean {
  const starts = prepared.busyStarts;
  // Count the busy ranges starting before `end`.
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (starts[mid]! < end) low = mid + 1;
    else high = mid;
  }
  return low > 0 && prepared.busyMaxEnds[low - 1]! > start;
}

/**
 * Calls `visit` for every free slot whose start lies in [lowerMs, upperMs), for the intervals of the dates
 * firstDay..lastDay (clipped to the window), in order of date and interval. Stops when `visit` returns false.
 */
function scan(
  prepared: Prepared,
  fromDay: number,
  toDay: number,
  lowerMs: number,
  upperMs: number,
  visit: (startMs: number, offsetMs: number) => boolean,
): void {
  const { timeZone, durationMs, stepMs, nowMs } = prepared;
  const first = Math.max(fromDay, prepared.firstDay);
  const last = Math.min(toDay, prepared.lastDay);
  const lowest = Math.max(nowMs, lowerMs);
  for (let day = first; day <= last; day += 1) {
    const intervals = prepared.overrides.get(day) ?? prepared.weekly[dayNumberWeekday(day)]!;
    for (const [startMinute, endMinute] of intervals) {
      if (endMinute <= startMinute) continue;
      const wallStart = day * DAY_MS + startMinute * MINUTE_MS;
      const wallEnd = day * DAY_MS + endMinute * MINUTE_MS;
      // Cheap rejection before any time-zone work: instants lie within OFFSET_BOUND_MS of wall times.
      if (wallEnd + OFFSET_BOUND_MS <= lowest || wallStart - OFFSET_BOUND_MS >= upperMs) continue;
      const start = wallMsToInstant(wallStart, timeZone);
      const end = wallMsToInstant(wallEnd, timeZone);
      const lastStart = end.epochMs - durationMs;
      let t = start.epochMs;
      if (t < lowest) t += Math.ceil((lowest - t) / stepMs) * stepMs;
      // Same offset at both ends: no transition inside the interval, so local time is plain arithmetic.
      const constantOffset = start.offsetMs === end.offsetMs;
      for (; t <= lastStart && t < upperMs; t += stepMs) {
        if (isBusy(prepared, t, t + durationMs)) continue;
        if (!visit(t, constantOffset ? start.offsetMs : offsetMsAt(t, timeZone))) return;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------

/**
 * Free slots of a vet, sorted by start, within the booking window (see the module comment for every
 * rule). Throws RangeError for an invalid profile (unknown zone, malformed time or date key, unsupported
 * `timeAvailableFor`, non-positive duration or step), an invalid `now`, or malformed `from`/`to`.
 */
export function findFreeSlots(profile: AvailabilityProfile, query: SlotQuery): FreeSlot[] {
  const prepared = prepare(profile, query.now, query.busy);
  const fromDay = query.from === undefined ? -Infinity : dateKeyToDayNumber(query.from);
  const toDay = query.to === undefined ? Infinity : dateKeyToDayNumber(query.to);
  const slots: FreeSlot[] = [];
  const dateKeys = new Map<number, string>();
  let ordered = true;
  let previous = -Infinity;
  scan(prepared, fromDay, toDay, -Infinity, Infinity, (startMs, offsetMs) => {
    const localMs = startMs + offsetMs;
    const localDay = Math.floor(localMs / DAY_MS);
    let dateKey = dateKeys.get(localDay);
    if (dateKey === undefined) dateKeys.set(localDay, (dateKey = dayNumberToDateKey(localDay)));
    slots.push({
      start: new Date(startMs),
      end: new Date(startMs + prepared.durationMs),
      dateKey,
      localStart: minutesToTime(Math.floor((localMs - localDay * DAY_MS) / MINUTE_MS)),
    });
    if (startMs <= previous) ordered = false;
    previous = startMs;
    return true;
  });
  if (ordered) return slots;
  // Overlapping intervals, or a gap that maps an interval onto another: sort and drop repeated starts.
  slots.sort((a, b) => a.start.getTime() - b.start.getTime());
  return slots.filter((slot, i) => i === 0 || slot.start.getTime() !== slots[i - 1]!.start.getTime());
}

/**
 * Whether the vet has at least one free slot (same rules as findFreeSlots) whose start falls on
 * `viewerDateKey` in `viewerTimeZone` — the customer's view of "vets with availability on a date".
 * Stops at the first free slot found.
 */
export function hasFreeSlotOnViewerDate(
  profile: AvailabilityProfile,
  viewerDateKey: string,
  viewerTimeZone: string,
  query: { now: Date; busy: readonly BusyRange[] },
): boolean {
  const viewerDay = dateKeyToDayNumber(viewerDateKey);
  const dayStart = wallMsToInstant(viewerDay * DAY_MS, viewerTimeZone).epochMs;
  const dayEnd = wallMsToInstant((viewerDay + 1) * DAY_MS, viewerTimeZone).epochMs;
  // Only busy ranges that can overlap a slot starting on that date matter.
  const prepared = prepare(profile, query.now, query.busy, dayStart, dayEnd + profile.durationMinutes * MINUTE_MS);
  if (dayEnd <= prepared.nowMs) return false;
  const vetDay = (epochMs: number) => Math.floor((epochMs + offsetMsAt(epochMs, prepared.timeZone)) / DAY_MS);
  // Slots of vet date D start on local date D, except when an interval's end falls in a DST gap that spans
  // midnight (moved forward into D+1): one extra vet date before covers that.
  const fromDay = vetDay(dayStart) - 1;
  const toDay = vetDay(dayEnd - 1);
  let found = false;
  scan(prepared, fromDay, toDay, dayStart, dayEnd, () => {
    found = true;
    return false;
  });
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Working-interval rules of docs/product-rules.md#validation (weekly editor and server alike)
// ---------------------------------------------------------------------------------------------------------

export type DayIntervalsValidation = { ok: true } | { ok: false; code: 'end_before_start' | 'overlap'; index: number };

/**
 * docs/product-rules.md#validation "Working intervals" for the intervals of one day: every end later than its start
 * ('end_before_start', index of the first such interval), and no two intervals overlapping — touching
 * (09:00–12:00 and 12:00–13:00) is allowed ('overlap', index of the interval that starts inside an
 * earlier-starting one; of two with the same start, the later in the list). Malformed times ('HH:MM', end
 * may be '24:00') throw RangeError: schemas check the format first.
 */
export function validateDayIntervals(intervals: readonly WorkingInterval[]): DayIntervalsValidation {
  const parsed = intervals.map((interval, index) => ({
    start: timeToMinutes(interval.start),
    end: timeToMinutes(interval.end),
    index,
  }));
  for (const interval of parsed) {
    if (interval.end <= interval.start) return { ok: false, code: 'end_before_start', index: interval.index };
  }
  parsed.sort((a, b) => a.start - b.start || a.index - b.index);
  let latestEnd = -1;
  for (const interval of parsed) {
    if (interval.start < latestEnd) return { ok: false, code: 'overlap', index: interval.index };
    latestEnd = Math.max(latestEnd, interval.end);
  }
  return { ok: true };
}

/**
 * docs/product-rules.md#validation "A new interval": 09:00–17:00 when the day has none; otherwise one hour starting one
 * hour after the latest end; null (not added) when the latest end is in hour 23 or is 24:00. When the latest end is
 * in hour 22 but not on the hour, the new interval is cut at 24:00 (22:30 → 23:30–24:00).
 */
export function nextDefaultInterval(intervals: readonly WorkingInterval[]): WorkingInterval | null {
  if (intervals.length === 0) return { start: DEFAULT_INTERVAL.start, end: DEFAULT_INTERVAL.end };
  const latestEnd = Math.max(...intervals.map((interval) => timeToMinutes(interval.end)));
  if (latestEnd >= 23 * 60) return null;
  const start = latestEnd + 60;
  return { start: minutesToTime(start), end: minutesToTime(Math.min(start + 60, 1440)) };
}

// ---------------------------------------------------------------------------------------------------------
// Availability weeks (docs/product-rules.md#entities)
// ---------------------------------------------------------------------------------------------------------

export interface AvailabilityWeekDay {
  date: string;
  /** ISO weekday, 1 = Monday … 7 = Sunday (names are the UI's, through i18n). */
  weekday: IsoWeekdayNumber;
}

export interface AvailabilityWeek {
  /** ISO week-numbering year followed by the two-digit ISO week: 202647, 202701 (for 2026-12-28). */
  number: number;
  /** Monday, 'YYYY-MM-DD'. */
  date_start: string;
  /** Sunday (date_start + 6 days). */
  date_end: string;
  days: AvailabilityWeekDay[];
}

/** ISO week-numbering year and week of the week starting on Monday `mondayDay` (a day number). */
function isoWeekOf(mondayDay: number): { year: number; week: number } {
  const thursday = mondayDay + 3; // The ISO year is the year of the week's Thursday.
  const year = new Date(thursday * DAY_MS).getUTCFullYear();
  const januaryFirst = dateKeyToDayNumber(`${String(year).padStart(4, '0')}-01-01`);
  return { year, week: Math.floor((thursday - januaryFirst) / 7) + 1 };
}

/**
 * docs/product-rules.md#entities "Availability weeks": `count` consecutive ISO weeks starting with the one containing
 * `todayDateKey` (so from that week's Monday).
 */
export function availabilityWeeks(todayDateKey: string, count: number = AVAILABILITY_WEEKS): AvailabilityWeek[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`Invalid week count: ${count}`);
  const today = dateKeyToDayNumber(todayDateKey);
  const firstMonday = today - (dayNumberWeekday(today) - 1);
  const weeks: AvailabilityWeek[] = [];
  for (let w = 0; w < count; w += 1) {
    const monday = firstMonday + w * 7;
    const { year, week } = isoWeekOf(monday);
    const days: AvailabilityWeekDay[] = [];
    for (let d = 0; d < 7; d += 1) {
      days.push({ date: dayNumberToDateKey(monday + d), weekday: (d + 1) as IsoWeekdayNumber });
    }
    weeks.push({
      number: year * 100 + week,
      date_start: days[0]!.date,
      date_end: days[6]!.date,
      days,
    });
  }
  return weeks;
}
