import { describe, expect, it } from 'vitest';
import { FIELD_ERROR_CODES } from '../error-codes.ts';
import { fieldErrorsFromIssues } from './fields.ts';
import {
  POSTAL_COUNTRIES,
  isPostalCountry,
  isValidPostalCode,
  normalizePostalCode,
  postalCodeLookupSchema,
  postalCodeParamsSchema,
  postalCodePatterns,
} from './postal-code.ts';

describe('postal codes (docs/product-rules.md#validation)', () => {
  it('covers Portugal, the United States and Brazil', () => {
    expect(POSTAL_COUNTRIES).toEqual(['PT', 'US', 'BR']);
    expect(Object.keys(postalCodePatterns).sort()).toEqual(['BR', 'PT', 'US']);
    expect(isPostalCountry('PT')).toBe(true);
    expect(isPostalCountry('pt')).toBe(false);
    expect(isPostalCountry(undefined)).toBe(false);
  });

  it.each([
    ['PT', '1000-001', true],
    ['PT', '9999-999', true],
    ['PT', '1000001', false],
    ['PT', '1000-01', false],
    ['PT', ' 1000-001', false],
    ['PT', '1000–001', false], // en dash
    ['US', '90210', true],
    ['US', '00501', true],
    ['US', '9021', false],
    ['US', '90210-1234', false],
    ['BR', '01001-000', true],
    ['BR', '01001000', false],
    ['BR', '0100-1000', false],
    ['ES', '28001', false],
    ['PT', '١٠٠٠-٠٠١', false], // Arabic-Indic digits are not \d
  ])('isValidPostalCode(%s, %s) is %s', (country, code, valid) => {
    expect(isValidPostalCode(country, code)).toBe(valid);
  });

  it.each([
    ['PT', ' 1000001 ', '1000-001'],
    ['PT', '1000-001', '1000-001'],
    ['PT', '100001', '100001'],
    ['BR', '01001000', '01001-000'],
    ['BR', ' 01001-000', '01001-000'],
    ['BR', '010010000', '010010000'],
    ['US', ' 90210 ', '90210'],
    ['US', '9021012', '9021012'],
  ])('normalizePostalCode(%s, %j) is %j', (country, code, normalized) => {
    expect(normalizePostalCode(country, code)).toBe(normalized);
  });

  describe('postalCodeParamsSchema', () => {
    const fieldsOf = (input: unknown) => {
      const result = postalCodeParamsSchema.safeParse(input);
      return result.success ? undefined : fieldErrorsFromIssues(result.error.issues);
    };

    it('accepts a code in either form and upper-cases the country', () => {
      expect(postalCodeParamsSchema.parse({ country: 'br', code: '01001000' })).toEqual({
        country: 'BR',
        code: '01001000',
      });
      expect(postalCodeParamsSchema.parse({ country: 'PT', code: '1000-001' })).toEqual({
        country: 'PT',
        code: '1000-001',
      });
    });

    it.each([
      [{ country: 'PT', code: '1000' }],
      [{ country: 'US', code: '90210-1234' }],
      [{ country: 'BR', code: 'x'.repeat(21) }],
      [{ country: 'US' }],
    ])('flags a bad code as code: invalid_format (%j)', (input) => {
      expect(fieldsOf(input)).toEqual({ code: 'invalid_format' });
    });

    it('flags an unknown country, and its code with it', () => {
      expect(fieldsOf({ country: 'ES', code: '28001' })).toEqual({ country: 'invalid_value', code: 'invalid_format' });
    });

    it('uses only existing field codes', () => {
      for (const input of [{ country: 'ES', code: '1' }, { country: 'PT', code: 'x'.repeat(30) }, {}]) {
        for (const code of Object.values(fieldsOf(input) ?? {})) expect(FIELD_ERROR_CODES).toContain(code);
      }
    });
  });

  it('postalCodeLookupSchema allows an empty address', () => {
    const body = { country: 'US', postal_code: '90210', city: 'Beverly Hills', state: 'California', address: '' };
    expect(postalCodeLookupSchema.parse(body)).toEqual(body);
  });
});
