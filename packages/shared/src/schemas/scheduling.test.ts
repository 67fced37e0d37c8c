import { describe, expect, it } from 'vitest';
import { compactDateParam, holdInputSchema, MAX_SLOT_QUERY_DAYS, slotsQuerySchema } from './scheduling.ts';

describe('scheduling contracts', () => {
  it('reads a date without dashes as a date key, and refuses anything but a real YYYYMMDD', () => {
    expect(compactDateParam.parse('20260113')).toBe('2026-01-13');
    expect(compactDateParam.parse('20240229')).toBe('2024-02-29');
    for (const bad of ['2026-01-13', '2026113', '202601131', '20250229', '20261301', '20260132', ' 20260113']) {
      expect(compactDateParam.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('accepts slot ranges of 1 to 62 dates in order, with an optional known zone', () => {
    expect(slotsQuerySchema.parse({ from: '2026-01-01', to: '2026-01-01' })).toEqual({
      from: '2026-01-01',
      to: '2026-01-01',
    });
    expect(MAX_SLOT_QUERY_DAYS).toBe(62);
    expect(slotsQuerySchema.safeParse({ from: '2026-01-01', to: '2026-03-03' }).success).toBe(true);
    const tooLong = slotsQuerySchema.safeParse({ from: '2026-01-01', to: '2026-03-04' });
    expect(tooLong.error?.issues).toMatchObject([{ path: ['to'], message: 'too_big' }]);
    const reversed = slotsQuerySchema.safeParse({ from: '2026-01-02', to: '2026-01-01' });
    expect(reversed.error?.issues).toMatchObject([{ path: ['to'], message: 'invalid_value' }]);
    expect(slotsQuerySchema.parse({ from: '2026-01-01', to: '2026-01-02', tz: 'America/Sao_Paulo' }).tz).toBe(
      'America/Sao_Paulo',
    );
    expect(slotsQuerySchema.safeParse({ from: '2026-01-01', to: '2026-01-02', tz: 'Atlantis/Capital' }).success).toBe(
      false,
    );
    expect(slotsQuerySchema.parse({ from: '2026-01-01', to: '2026-01-02', profile_id: '7' }).profile_id).toBe(7);
  });

  it('takes a hold start as an instant with a zone or offset', () => {
    const base = { vet_id: 1, profile_id: 2 };
    expect(holdInputSchema.safeParse({ ...base, start: '2026-01-13T09:00:00Z' }).success).toBe(true);
    expect(holdInputSchema.safeParse({ ...base, start: '2026-01-13T09:00:00-03:00' }).success).toBe(true);
    expect(holdInputSchema.safeParse({ ...base, start: '2026-01-13T09:00:00' }).success).toBe(false);
    expect(holdInputSchema.safeParse({ ...base, start: '2026-01-13' }).success).toBe(false);
  });
});
