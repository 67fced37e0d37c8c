import { describe, expect, it } from 'vitest';
import { lastBookableDate } from './booking-window';

describe('booking window (docs/product-rules.md#validation: today to one month ahead)', () => {
  it('is one calendar month ahead, clamped to the end of a shorter month', () => {
    expect(lastBookableDate('2026-11-21')).toBe('2026-12-21');
    expect(lastBookableDate('2026-12-31')).toBe('2027-01-31');
    expect(lastBookableDate('2027-01-31')).toBe('2027-02-28');
    expect(lastBookableDate('2028-01-30')).toBe('2028-02-29');
  });
});
