/**
 * The confirmation page's date-time (docs/product-rules.md#confirmation-page: 24-hour, 'Y-m-d H:i'). A native
 * datetime-local input holds 'YYYY-MM-DDTHH:mm' in the browser's zone; the server gets 'YYYY-MM-DD HH:mm' with that
 * zone's offset.
 */

const LOCAL_INPUT_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const pad = (value: number) => String(value).padStart(2, '0');

/** An instant as the browser's wall clock, in the datetime-local format ('2026-03-14T09:30'). */
export function toLocalInputValue(instant: Date): string {
  return (
    `${instant.getFullYear()}-${pad(instant.getMonth() + 1)}-${pad(instant.getDate())}` +
    `T${pad(instant.getHours())}:${pad(instant.getMinutes())}`
  );
}

/** The browser-zone instant of a datetime-local value, or undefined when it is not one. */
export function parseLocalInputValue(value: string): Date | undefined {
  const match = LOCAL_INPUT_PATTERN.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const instant = new Date(year, month - 1, day, hour, minute);
  // Rejects dates that roll over (2026-02-30) and wall times skipped by a DST change.
  return toLocalInputValue(instant) === value ? instant : undefined;
}

/** 'YYYY-MM-DDTHH:mm' → 'YYYY-MM-DD HH:mm' (CONFIRM_SCHEDULE_PATTERN). */
export function toConfirmSchedule(value: string): string {
  return value.replace('T', ' ');
}

/**
 * The browser's UTC offset in seconds at that instant (local = UTC + diff). Taken at the chosen time, not
 * now, so a confirmation across a daylight-saving change still names the instant the vet picked.
 */
export function timezoneDiffAt(instant: Date): number {
  // `0 -` rather than unary minus: UTC gives 0, not -0.
  return 0 - instant.getTimezoneOffset() * 60;
}
