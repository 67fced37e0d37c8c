import type { Locale } from '@vetcall/shared/locales';
import { isValidTimeZone, offsetMsAt } from '@vetcall/shared/scheduling/zoned-time';
import { CONFIRM_SCHEDULE_PATTERN } from '@vetcall/shared/schemas/booking';

/**
 * Times of the confirmation flow. The vet's browser sends a wall time ('YYYY-MM-DD HH:mm') with its UTC
 * offset in seconds (docs/product-rules.md#limits: local = UTC + timezone_diff); mails show the time in each party's
 * zone.
 */

/**
 * The instant a browser showing `schedule` at UTC offset `timezoneDiffSeconds` means: the wall time read
 * as UTC, minus the offset. Undefined for a malformed or impossible date (2026-02-30).
 */
export function browserWallTimeToInstant(schedule: string, timezoneDiffSeconds: number): Date | undefined {
  if (!CONFIRM_SCHEDULE_PATTERN.test(schedule)) return undefined;
  const [date, time] = schedule.split(' ') as [string, string];
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  const wallAsUtc = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (wallAsUtc.getUTCFullYear() !== year || wallAsUtc.getUTCMonth() !== month - 1 || wallAsUtc.getUTCDate() !== day) {
    return undefined;
  }
  return new Date(wallAsUtc.getTime() - timezoneDiffSeconds * 1000);
}

/** Where a time is shown: an IANA zone (DST-correct), or only a fixed UTC offset when no zone is known. */
export type DisplayZone = { timeZone: string } | { offsetSeconds: number };

/**
 * Zones of the countries customers register from (POSTAL_COUNTRIES): the candidates for a customer's
 * zone, most populous first so that zones sharing an offset resolve to the likeliest one.
 */
const COUNTRY_TIME_ZONES: Readonly<Record<string, readonly string[]>> = {
  PT: ['Europe/Lisbon', 'Atlantic/Madeira', 'Atlantic/Azores'],
  BR: [
    'America/Sao_Paulo',
    'America/Bahia',
    'America/Fortaleza',
    'America/Recife',
    'America/Belem',
    'America/Manaus',
    'America/Cuiaba',
    'America/Campo_Grande',
    'America/Porto_Velho',
    'America/Boa_Vista',
    'America/Rio_Branco',
    'America/Noronha',
  ],
  US: [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Phoenix',
    'America/Los_Angeles',
    'America/Anchorage',
    'Pacific/Honolulu',
  ],
};

/**
 * The customer's zone for their mail. The booking stored only the browser's offset when booking, which is
 * wrong for an appointment on the other side of a DST change; so the first candidate zone that had exactly
 * that offset at booking time is taken (the vet's own zone, then the zones of the customer's country).
 * None matches (a traveller, an unknown country): the offset itself.
 */
export function customerDisplayZone(input: {
  timezoneDiffSeconds: number;
  bookedAt: Date;
  vetTimeZone: string;
  country: string;
}): DisplayZone {
  const candidates = [input.vetTimeZone, ...(COUNTRY_TIME_ZONES[input.country.trim().toUpperCase()] ?? [])];
  const match = candidates.find(
    (zone) => isValidTimeZone(zone) && offsetMsAt(input.bookedAt.getTime(), zone) === input.timezoneDiffSeconds * 1000,
  );
  return match ? { timeZone: match } : { offsetSeconds: input.timezoneDiffSeconds };
}

const INTL_LOCALES: Record<Locale, string> = { en: 'en-GB', pt: 'pt-PT', 'pt-BR': 'pt-BR' };

/** 'UTC+01:00', 'UTC−03:00' (a real minus sign), 'UTC+05:30'. */
export function formatUtcOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '−' : '+';
  const minutes = Math.round(Math.abs(offsetSeconds) / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `UTC${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * A date and 24-hour time in the reader's language and zone, the zone named:
 * 'Tuesday, 20 January 2026 at 11:00 (America/Sao_Paulo)', or '… (UTC+01:00)' with only an offset.
 */
export function formatAppointmentTime(instant: Date, locale: Locale, zone: DisplayZone): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'short', hourCycle: 'h23' };
  if ('timeZone' in zone) {
    const text = new Intl.DateTimeFormat(INTL_LOCALES[locale], { ...options, timeZone: zone.timeZone }).format(instant);
    return `${text} (${zone.timeZone})`;
  }
  // Node's Intl takes no offset zones ('+01:00'): shift the instant and show it as UTC.
  const shifted = new Date(instant.getTime() + zone.offsetSeconds * 1000);
  const text = new Intl.DateTimeFormat(INTL_LOCALES[locale], { ...options, timeZone: 'UTC' }).format(shifted);
  return `${text} (${formatUtcOffset(zone.offsetSeconds)})`;
}
