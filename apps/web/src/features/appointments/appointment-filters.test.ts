import { describe, expect, it } from 'vitest';
import { MNGRECORD_PARAM_PATTERN } from '@vetcall/shared/schemas/appointment';
import { addDays, defaultFilter, filterDateBounds, filterProblems, mngrecordParam } from './appointment-filters';

describe('appointment filters', () => {
  it('moves date keys by days across months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2026-12-20', 15)).toBe('2027-01-04');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('defaults to 15 days either side of today, all vets', () => {
    expect(defaultFilter('2026-11-21')).toEqual({ from: '2026-11-06', to: '2026-12-06', vet: '' });
  });

  it('bounds the dates from 1950-01-01 to one month from today', () => {
    expect(filterDateBounds('2026-11-21')).toEqual({ min: '1950-01-01', max: '2026-12-21' });
    expect(filterDateBounds('2027-01-31')).toEqual({ min: '1950-01-01', max: '2027-02-28' });
  });

  it('reports missing, malformed, out-of-range and reversed dates', () => {
    const bounds = filterDateBounds('2026-11-21');
    expect(filterProblems(defaultFilter('2026-11-21'), bounds)).toEqual({});
    expect(filterProblems({ from: '', to: '2026-13-01', vet: '' }, bounds)).toEqual({
      from: 'required',
      to: 'invalid_format',
    });
    expect(filterProblems({ from: '1949-12-31', to: '2026-12-22', vet: '' }, bounds)).toEqual({
      from: 'out_of_range',
      to: 'out_of_range',
    });
    expect(filterProblems({ from: '2026-11-10', to: '2026-11-09', vet: '' }, bounds)).toEqual({ to: 'before_from' });
    expect(filterProblems({ from: '1950-01-01', to: '2026-12-21', vet: '' }, bounds)).toEqual({});
  });

  it('builds the mngrecord parameter the server accepts', () => {
    const all = mngrecordParam({ from: '2026-11-06', to: '2026-12-06', vet: '' });
    const one = mngrecordParam({ from: '2026-11-06', to: '2026-12-06', vet: '42' });
    expect(all).toBe('2026-11-06_2026-12-06_all');
    expect(one).toBe('2026-11-06_2026-12-06_42');
    expect(MNGRECORD_PARAM_PATTERN.test(all)).toBe(true);
    expect(MNGRECORD_PARAM_PATTERN.test(one)).toBe(true);
  });
});
