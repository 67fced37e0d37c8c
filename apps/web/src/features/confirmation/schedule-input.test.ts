import { describe, expect, it } from 'vitest';
import { CONFIRM_SCHEDULE_PATTERN } from '@vetcall/shared/schemas/booking';
import { parseLocalInputValue, timezoneDiffAt, toConfirmSchedule, toLocalInputValue } from './schedule-input';

/** The browser's wall clock of an instant, computed independently of the code under test. */
const wallClock = (instant: Date) =>
  new Date(instant.getTime() - instant.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

describe('confirmation date-time', () => {
  it('shows an instant as the browser wall clock of a datetime-local input', () => {
    const instant = new Date('2030-03-14T10:05:00.000Z');
    expect(toLocalInputValue(instant)).toBe(wallClock(instant));
  });

  it('reads a datetime-local value back as the same instant', () => {
    const instant = new Date('2030-07-01T22:45:00.000Z');
    expect(parseLocalInputValue(toLocalInputValue(instant))?.getTime()).toBe(instant.getTime());
  });

  it.each(['', '2030-03-14', '2030-03-14 10:00', '2030-02-30T10:00', '2030-03-14T24:00', '2030-13-01T10:00'])(
    'refuses %j',
    (value) => {
      expect(parseLocalInputValue(value)).toBeUndefined();
    },
  );

  it("sends 'YYYY-MM-DD HH:mm' (docs/product-rules.md#confirmation-page Y-m-d H:i)", () => {
    const schedule = toConfirmSchedule('2030-03-14T09:05');
    expect(schedule).toBe('2030-03-14 09:05');
    expect(CONFIRM_SCHEDULE_PATTERN.test(schedule)).toBe(true);
  });

  it('gives the offset in seconds at the chosen instant, so local = UTC + diff', () => {
    const instant = new Date('2030-03-14T10:05:00.000Z');
    const diff = timezoneDiffAt(instant);
    expect(Number.isInteger(diff)).toBe(true);
    expect(new Date(instant.getTime() + diff * 1000).toISOString().slice(0, 16)).toBe(wallClock(instant));
  });
});
