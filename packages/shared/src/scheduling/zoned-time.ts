/**
 * Time-zone arithmetic for scheduling, with `Intl` only (no date library).
 *
 * Vocabulary:
 * - a *date key* is 'YYYY-MM-DD' (docs/product-rules.md#limits), a *time* is 'HH:MM' (00:00–23:59; '24:00' is accepted
 *   where a wall time is converted and means 00:00 of the next day);
 * - a *wall time* is what clocks in a time zone show; an *instant* is a point on the UTC time line (`Date`).
 *
 * Wall time → instant follows Temporal's `disambiguation: 'compatible'`:
 * - **gap** (the wall time does not exist, e.g. 01:30 in Europe/Lisbon on 2026-03-29 when clocks jump
 *   01:00 → 02:00): the wall time is read with the offset in force *before* the transition, i.e. it is moved
 *   forward by the length of the gap (01:30 → the instant shown as 02:30 WEST, 01:30Z);
 * - **overlap** (the wall time occurs twice, e.g. 01:30 in Europe/Lisbon on 2026-10-25 when clocks go back
 *   02:00 → 01:00): the earlier instant (01:30 WEST, 00:30Z).
 * The search assumes at most one offset change within 24 hours either side of the wall time, which holds for
 * every zone in current use.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Days in a 400-year Gregorian cycle: used to build instants for years 0–99, which `Date.UTC` maps to 19xx. */
const DAYS_PER_400_YEARS = 146_097;

const DATE_KEY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;
const DURATION_RE = /^P(?!$)(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/;

/** Longest horizon `horizonEndDateKey` accepts, in days (about ten years): bounds the work of a slot search. */
export const MAX_HORIZON_DAYS = 3660;

export type IsoWeekdayNumber = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface ZonedParts {
  /** Local date in the zone, 'YYYY-MM-DD'. */
  dateKey: string;
  /** Local time in the zone, 'HH:MM' (seconds are dropped, not rounded). */
  time: string;
  /** ISO weekday of `dateKey`: 1 = Monday … 7 = Sunday. */
  weekday: IsoWeekdayNumber;
}

// ---------------------------------------------------------------------------------------------------------
// Formatter cache
// ---------------------------------------------------------------------------------------------------------

const FORMATTER_CACHE_LIMIT = 500;
const formatters = new Map<string, Intl.DateTimeFormat>();
const eraFormatters = new Map<string, Intl.DateTimeFormat>();

/** One `Intl.DateTimeFormat` per zone (creating one costs far more than formatting with it). */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    // Throws RangeError for an unknown zone, so an invalid zone is never cached.
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Zone names are case-insensitive, so the set of accepted spellings is unbounded: keep the cache bounded.
    if (formatters.size >= FORMATTER_CACHE_LIMIT) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Slow path for years outside 1000–9999 (the fast parser expects four-digit years and no era). */
function wallMsFromParts(epochMs: number, timeZone: string): number {
  let formatter = eraFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (eraFormatters.size >= FORMATTER_CACHE_LIMIT) eraFormatters.clear();
    eraFormatters.set(timeZone, formatter);
  }
  const values: Record<string, string> = {};
  for (const part of formatter.formatToParts(epochMs)) values[part.type] = part.value;
  const shownYear = Number(values.year);
  const year = values.era === 'BC' || values.era === 'B' ? 1 - shownYear : shownYear;
  return utcMs(
    year,
    Number(values.month),
    Number(values.day),
    Number(values.hour) % 24,
    Number(values.minute),
    Number(values.second),
  );
}

// ---------------------------------------------------------------------------------------------------------
// Small calendar helpers (proleptic Gregorian, on UTC milliseconds)
// ---------------------------------------------------------------------------------------------------------

/** Like `Date.UTC` (month 1–12) but correct for years 0–99 too. */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second);
  return Date.UTC(year + 400, month - 1, day, hour, minute, second) - DAYS_PER_400_YEARS * DAY_MS;
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Milliseconds of `epochMs` truncated to whole seconds (Intl formats whole seconds). */
function floorToSecond(epochMs: number): number {
  return epochMs - (((epochMs % 1000) + 1000) % 1000);
}

/** The offset (local minus UTC, in ms) in force at an instant. */
export function offsetMsAt(epochMs: number, timeZone: string): number {
  return wallMsAt(epochMs, timeZone) - floorToSecond(epochMs);
}

// ---------------------------------------------------------------------------------------------------------
// Offset cache
// ---------------------------------------------------------------------------------------------------------

/**
 * Formatting one instant with Intl costs microseconds, and a slot list labels thousands of them: so the offset
 * is looked up per half day instead. A half day whose first and last second share an offset has that offset
 * throughout (the module assumes at most one change within a day), and every instant in it is read by
 * arithmetic; a half day with a change in it (two a year in DST zones) is formatted instant by instant.
 */
const OFFSET_BUCKET_MS = DAY_MS / 2;
/** Half days cached per zone (about 27 years) before that zone's cache is emptied. */
const OFFSET_BUCKETS_PER_ZONE_LIMIT = 20_000;
/** Instants from 1900 to 2200 use the cache; the rest (rare, and near the ends of Date) are formatted. */
const CACHED_FROM_MS = Date.UTC(1900, 0, 1);
const CACHED_UNTIL_MS = Date.UTC(2200, 0, 1);
/** Per zone: half-day number → its single offset in ms, or null when the offset changes within it. */
const offsetBuckets = new Map<string, Map<number, number | null>>();

function cachedOffsetMs(epochMs: number, timeZone: string): number | null {
  let zone = offsetBuckets.get(timeZone);
  if (zone === undefined) {
    // Same bound as the formatters: zone spellings are unbounded.
    if (offsetBuckets.size >= FORMATTER_CACHE_LIMIT) offsetBuckets.clear();
    zone = new Map();
    offsetBuckets.set(timeZone, zone);
  }
  const bucket = Math.floor(epochMs / OFFSET_BUCKET_MS);
  let offset = zone.get(bucket);
  if (offset === undefined) {
    const first = bucket * OFFSET_BUCKET_MS;
    const last = first + OFFSET_BUCKET_MS - 1000;
    const firstOffset = formattedWallMs(first, timeZone) - first;
    offset = formattedWallMs(last, timeZone) - last === firstOffset ? firstOffset : null;
    if (zone.size >= OFFSET_BUCKETS_PER_ZONE_LIMIT) zone.clear();
    zone.set(bucket, offset);
  }
  return offset;
}

/** The wall time shown at an instant, as milliseconds "as if UTC" (whole seconds). */
function wallMsAt(epochMs: number, timeZone: string): number {
  if (epochMs >= CACHED_FROM_MS && epochMs < CACHED_UNTIL_MS) {
    const offset = cachedOffsetMs(epochMs, timeZone);
    if (offset !== null) return floorToSecond(epochMs) + offset;
  }
  return formattedWallMs(epochMs, timeZone);
}

/** wallMsAt through Intl: the wall time as the zone's formatter shows it. */
function formattedWallMs(epochMs: number, timeZone: string): number {
  const text = formatterFor(timeZone).format(epochMs);
  // Fast path for the usual 'MM/DD/YYYY, HH:MM:SS' (20 characters); anything else goes through the parts.
  if (text.length !== 20 || text.charCodeAt(2) !== 47 || text.charCodeAt(11) !== 32) {
    return wallMsFromParts(epochMs, timeZone);
  }
  const year = digits4(text, 6);
  if (year < 100) return wallMsFromParts(epochMs, timeZone);
  return Date.UTC(
    year,
    digits2(text, 0) - 1,
    digits2(text, 3),
    digits2(text, 12) % 24,
    digits2(text, 15),
    digits2(text, 18),
  );
}

function digits2(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

function digits4(text: string, at: number): number {
  return digits2(text, at) * 100 + digits2(text, at + 2);
}

/**
 * The instant at which a wall time (given "as if UTC", in ms) occurs in a zone, with 'compatible'
 * disambiguation, together with the offset in force at that instant.
 * @internal exported for the slot engine, which works on numbers to stay fast.
 */
export function wallMsToInstant(wallMs: number, timeZone: string): { epochMs: number; offsetMs: number } {
  const before = offsetMsAt(wallMs - DAY_MS, timeZone);
  const after = offsetMsAt(wallMs + DAY_MS, timeZone);
  if (before === after) return { epochMs: wallMs - before, offsetMs: before };
  const withBefore = wallMs - before; // the wall time read with the offset in force before the change
  const withAfter = wallMs - after; // … and with the offset in force after it
  const withBeforeOffset = offsetMsAt(withBefore, timeZone);
  const withBeforeValid = withBeforeOffset === before;
  const withAfterValid = offsetMsAt(withAfter, timeZone) === after;
  if (withBeforeValid && withAfterValid) {
    // Overlap: the wall time occurs twice; take the earlier instant.
    return withBefore <= withAfter
      ? { epochMs: withBefore, offsetMs: before }
      : { epochMs: withAfter, offsetMs: after };
  }
  if (withAfterValid) return { epochMs: withAfter, offsetMs: after };
  if (withBeforeValid) return { epochMs: withBefore, offsetMs: before };
  // Gap: the wall time does not exist; read it with the offset before the change, i.e. move it forward by
  // the length of the gap (the instant lies after the change, so its own offset is the new one).
  return { epochMs: withBefore, offsetMs: withBeforeOffset };
}

// ---------------------------------------------------------------------------------------------------------
// Parsing and formatting
// ---------------------------------------------------------------------------------------------------------

/** Days since 1970-01-01 of a date key; throws RangeError for a malformed or impossible date. */
export function dateKeyToDayNumber(dateKey: string): number {
  const match = DATE_KEY_RE.exec(dateKey);
  if (match !== null) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      const ms = utcMs(year, month, day);
      if (new Date(ms).getUTCDate() === day) return ms / DAY_MS;
    }
  }
  throw new RangeError(`Invalid date key: ${JSON.stringify(dateKey)}`);
}

/** The date key of a day number (days since 1970-01-01). */
export function dayNumberToDateKey(dayNumber: number): string {
  const date = new Date(dayNumber * DAY_MS);
  const year = date.getUTCFullYear();
  if (year < 0 || year > 9999) throw new RangeError(`Date out of range: day ${dayNumber}`);
  return `${String(year).padStart(4, '0')}-${pad2(date.getUTCMonth() + 1)}-${pad2(date.getUTCDate())}`;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a day number. */
export function dayNumberWeekday(dayNumber: number): IsoWeekdayNumber {
  // 1970-01-01 was a Thursday (4).
  return (((((dayNumber + 3) % 7) + 7) % 7) + 1) as IsoWeekdayNumber;
}

/** Minutes since midnight of 'HH:MM' ('24:00' → 1440); throws RangeError for anything else. */
export function timeToMinutes(time: string): number {
  const match = TIME_RE.exec(time);
  if (match === null) throw new RangeError(`Invalid time: ${JSON.stringify(time)}`);
  if (match[3] !== undefined) return 1440;
  return Number(match[1]) * 60 + Number(match[2]);
}

/** 'HH:MM' of minutes since midnight (0–1440; 1440 → '24:00'). */
export function minutesToTime(minutes: number): string {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > 1440) {
    throw new RangeError(`Minutes out of range: ${minutes}`);
  }
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

function pad2(value: number): string {
  return value < 10 ? `0${value}` : String(value);
}

// ---------------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------------

/** Whether `timeZone` is an IANA zone (or other identifier) this runtime's Intl accepts. */
export function isValidTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone.length === 0) return false;
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant when clocks in `timeZone` show `time` on `dateKey`. `time` may be '24:00' (00:00 of the next
 * day). Gaps move forward by the gap, overlaps take the earlier instant (Temporal 'compatible'; see the
 * module comment). Throws RangeError for a malformed date, time or zone.
 */
export function zonedWallTimeToInstant(dateKey: string, time: string, timeZone: string): Date {
  const wallMs = dateKeyToDayNumber(dateKey) * DAY_MS + timeToMinutes(time) * MINUTE_MS;
  return new Date(wallMsToInstant(wallMs, timeZone).epochMs);
}

/** Local date, time ('HH:MM', seconds dropped) and ISO weekday of an instant in a zone. */
export function instantToZonedParts(date: Date, timeZone: string): ZonedParts {
  const epochMs = date.getTime();
  if (!Number.isFinite(epochMs)) throw new RangeError('Invalid date');
  const localMs = wallMsAt(epochMs, timeZone);
  const dayNumber = floorDiv(localMs, DAY_MS);
  const minutes = floorDiv(localMs - dayNumber * DAY_MS, MINUTE_MS);
  return {
    dateKey: dayNumberToDateKey(dayNumber),
    time: minutesToTime(minutes),
    weekday: dayNumberWeekday(dayNumber),
  };
}

/** The date key `days` days after (or before, if negative) `dateKey`. */
export function addDaysToDateKey(dateKey: string, days: number): string {
  if (!Number.isInteger(days)) throw new RangeError(`Not a whole number of days: ${days}`);
  return dayNumberToDateKey(dateKeyToDayNumber(dateKey) + days);
}

/** ISO weekday of a date key: 1 = Monday … 7 = Sunday. */
export function isoWeekday(dateKey: string): IsoWeekdayNumber {
  return dayNumberWeekday(dateKeyToDayNumber(dateKey));
}

/** Adds calendar months, clamping the day to the end of a shorter month (2026-01-31 + 1 month = 2026-02-28). */
function addMonthsToDayNumber(dayNumber: number, months: number): number {
  const date = new Date(dayNumber * DAY_MS);
  const monthIndex = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  const lastDay = new Date(utcMs(year, month + 1, 1) - DAY_MS).getUTCDate();
  return utcMs(year, month, Math.min(date.getUTCDate(), lastDay)) / DAY_MS;
}

/**
 * Number of days an ISO-8601 duration of months, weeks and days ('P10W', 'P30D', 'P2M', 'P1M2W3D') covers
 * when it starts on `startDateKey`. Months are calendar months with the day clamped to the end of a shorter
 * month (from 2026-01-31, P1M = 28 days). Anything else (years, times, fractions, signs, lowercase, an empty
 * 'P', more than MAX_HORIZON_DAYS days) throws RangeError.
 */
export function horizonDays(startDateKey: string, isoDuration: string): number {
  const match = DURATION_RE.exec(isoDuration);
  if (match === null) throw new RangeError(`Unsupported duration: ${JSON.stringify(isoDuration)}`);
  const start = dateKeyToDayNumber(startDateKey);
  const months = Number(match[1] ?? 0);
  const weeks = Number(match[2] ?? 0);
  const days = Number(match[3] ?? 0);
  if (months > 1200 || weeks > MAX_HORIZON_DAYS || days > MAX_HORIZON_DAYS) {
    throw new RangeError(`Duration too long: ${isoDuration}`);
  }
  const total = addMonthsToDayNumber(start, months) - start + weeks * 7 + days;
  if (total > MAX_HORIZON_DAYS) throw new RangeError(`Duration too long: ${isoDuration}`);
  return total;
}

/** Whether `horizonEndDateKey` accepts `isoDuration` (for schema refinements). */
export function isSupportedHorizon(isoDuration: string): boolean {
  try {
    horizonDays('2000-01-31', isoDuration);
    return true;
  } catch {
    return false;
  }
}

/**
 * The LAST day (inclusive) of a horizon of `isoDuration` starting on `startDateKey` (inclusive):
 * start + N days − 1, where N = horizonDays(start, isoDuration). So 'P10W' from Monday 2026-03-02 ends on
 * Sunday 2026-05-10 (70 days), 'P1D' ends on the start day itself, and 'P0D' ends the day before the start
 * (an empty horizon). Throws RangeError for an unsupported duration (see horizonDays).
 */
export function horizonEndDateKey(startDateKey: string, isoDuration: string): string {
  return dayNumberToDateKey(dateKeyToDayNumber(startDateKey) + horizonDays(startDateKey, isoDuration) - 1);
}
