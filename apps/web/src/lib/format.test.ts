import { describe, expect, it } from 'vitest';
import { formatDateKey, formatDateTime, formatEuros, formatTime } from './format';

describe('format', () => {
  it('writes an instant with its date, time and zone in each language (TZ=UTC in tests)', () => {
    expect(formatDateTime('2026-11-24T09:30:00Z', 'en')).toBe('Nov 24, 2026, 09:30 AM UTC');
    expect(formatDateTime('2026-11-24T09:30:00Z', 'pt')).toMatch(
      /^24\/11\/2026, 09:30 UTC$|^24 de nov\.? de 2026, 09:30 UTC$/,
    );
    expect(formatDateTime('2026-11-24T15:05:00Z', 'pt-BR')).toContain('15:05');
  });

  it('writes a time alone and a date key without a zone shift', () => {
    expect(formatTime('2026-11-24T15:05:00Z', 'pt')).toBe('15:05');
    expect(formatDateKey('2026-11-24', 'en')).toBe('Nov 24, 2026');
  });
});

describe('formatEuros', () => {
  it('writes integer cents as euros in the viewer’s language', () => {
    expect(formatEuros(2125, 'en')).toBe('€21.25');
    expect(formatEuros(2500, 'pt').replace(/\s/g, ' ')).toBe('€ 25,00');
    expect(formatEuros(0, 'pt-BR').replace(/\s/g, ' ')).toBe('€ 0,00');
  });
});
