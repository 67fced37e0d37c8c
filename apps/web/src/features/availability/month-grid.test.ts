import { describe, expect, it } from 'vitest';
import { monthBounds, monthOf, monthWeeks, shiftMonth } from './month-grid';

describe('month grid', () => {
  it('knows a month’s bounds, leap years included', () => {
    expect(monthBounds('2026-11')).toStrictEqual({ first: '2026-11-01', last: '2026-11-30' });
    expect(monthBounds('2028-02')).toStrictEqual({ first: '2028-02-01', last: '2028-02-29' });
    expect(monthOf('2026-11-21')).toBe('2026-11');
  });

  it('moves across years', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2027-01', -1)).toBe('2026-12');
  });

  it('lays a month out in Monday-first weeks padded with nulls', () => {
    // November 2026 starts on a Sunday and ends on a Monday.
    const weeks = monthWeeks('2026-11');
    expect(weeks).toHaveLength(6);
    expect(weeks[0]).toStrictEqual([null, null, null, null, null, null, '2026-11-01']);
    expect(weeks[5]).toStrictEqual(['2026-11-30', null, null, null, null, null, null]);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks.flat().filter(Boolean)).toHaveLength(30);
  });
});
