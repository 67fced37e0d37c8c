import { describe, expect, it } from 'vitest';
import { formatFileSize } from './file-size';

describe('formatFileSize', () => {
  it('shows bytes under 1 KB', () => {
    expect(formatFileSize(0, 'en')).toBe('0 B');
    expect(formatFileSize(1, 'en')).toBe('1 B');
    expect(formatFileSize(1023, 'en')).toBe('1,023 B');
  });

  it('shows whole KB from 1 KB to just under 1 MB', () => {
    expect(formatFileSize(1024, 'en')).toBe('1 KB');
    expect(formatFileSize(1536, 'en')).toBe('1 KB');
    expect(formatFileSize(500 * 1024, 'en')).toBe('500 KB');
    expect(formatFileSize(1024 * 1024 - 1, 'en')).toBe('1,023 KB');
  });

  it('shows MB with one decimal from 1 MB on', () => {
    expect(formatFileSize(1024 * 1024, 'en')).toBe('1.0 MB');
    expect(formatFileSize(1.5 * 1024 * 1024, 'en')).toBe('1.5 MB');
    expect(formatFileSize(20_971_520, 'en')).toBe('20.0 MB');
    expect(formatFileSize(41_943_040, 'en')).toBe('40.0 MB');
  });

  it('writes numbers as the viewer does', () => {
    expect(formatFileSize(1.5 * 1024 * 1024, 'pt')).toBe('1,5 MB');
    expect(formatFileSize(1.5 * 1024 * 1024, 'pt-BR')).toBe('1,5 MB');
  });
});
