import { describe, expect, it } from 'vitest';
import { formatDecimal, readDecimal } from './decimal';

describe('readDecimal', () => {
  it.each([
    ['4.6', 1, 4.6],
    ['4,6', 1, 4.6],
    [' 31,4 ', 1, 31.4],
    ['4.', 1, 4],
    [',5', 1, 0.5],
    ['27.50', 2, 27.5],
    ['5,', 0, 5],
    ['5.', 0, 5],
    ['100000', 2, 100000],
  ])('reads %j with %i decimals as %d', (text, decimals, value) => {
    expect(readDecimal(text, decimals)).toBe(value);
  });

  it.each(['', '.', ',', '  '])('reads %j as nothing typed yet', (text) => {
    expect(readDecimal(text, 1)).toBe('');
  });

  it.each([
    ['1.234', 1, 'a thousands separator is not one: three decimals where one is taken'],
    ['1.500', 2, 'the same for a price'],
    ['4.60', 1, 'more digits than the field has, even zeros'],
    ['5,0', 0, 'a decimal where none is taken'],
    ['1.234,5', 2, 'two separators'],
    ['1 234', 2, 'a space'],
    ['-4', 1, 'a sign'],
    ['4e1', 1, 'an exponent'],
    ['4,6 kg', 1, 'a unit'],
    ['abc', 1, 'letters'],
  ])('refuses %j (%i decimals): %s', (text, decimals) => {
    expect(readDecimal(text, decimals)).toBeNull();
  });
});

describe('formatDecimal', () => {
  it('writes the language’s separator and no grouping', () => {
    expect(formatDecimal(4.6, 'en', 1)).toBe('4.6');
    expect(formatDecimal(4.6, 'pt', 1)).toBe('4,6');
    expect(formatDecimal(4.6, 'pt-BR', 1)).toBe('4,6');
    expect(formatDecimal(12345.5, 'pt', 2, true)).toBe('12345,50');
    expect(formatDecimal(12345.5, 'en', 2, true)).toBe('12345.50');
    expect(formatDecimal(5, 'pt', 1)).toBe('5');
  });

  it('writes what readDecimal reads back', () => {
    for (const locale of ['en', 'pt', 'pt-BR'] as const) {
      for (const value of [0, 0.1, 4.6, 31.4, 999, 99999.99]) {
        expect(readDecimal(formatDecimal(value, locale, 2), 2)).toBe(value);
      }
    }
  });
});
