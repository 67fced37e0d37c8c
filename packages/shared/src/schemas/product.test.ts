import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fieldErrorsFromIssues } from './fields.ts';
import { centsToPrice, PRICE_MAX, priceToCents, productInputSchema, productPriceInputSchema } from './product.ts';

function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsFromIssues(result.error.issues);
}

const designation = { en: 'Video consultation', pt: 'Consulta por vídeo', 'pt-BR': 'Consulta por vídeo' };

describe('product prices (docs/product-rules.md#validation: numeric, step 0.01)', () => {
  it.each([0, 0.01, 0.29, 19.99, 25, 0.1 + 0.2, 1.15, PRICE_MAX])('accepts %d', (price) => {
    expect(fieldsOf(productPriceInputSchema, { price })).toEqual({});
  });

  it.each([
    [-0.01, 'too_small'],
    [PRICE_MAX + 0.01, 'too_big'],
    [1.005, 'invalid_format'],
    [25.001, 'invalid_format'],
    [Number.NaN, 'required'],
    ['25', 'required'],
    [undefined, 'required'],
  ])('refuses %s as %s', (price, code) => {
    expect(fieldsOf(productPriceInputSchema, { price })).toEqual({ price: code });
  });

  it('converts EUR to whole cents and back without floating-point residue', () => {
    expect([0.29, 19.99, 0.1 + 0.2, 1.15, 99_999.99].map(priceToCents)).toEqual([29, 1999, 30, 115, 9_999_999]);
    expect(centsToPrice(2500)).toBe(25);
    expect(centsToPrice(1999)).toBe(19.99);
  });
});

describe('productInputSchema', () => {
  it('trims the designations in the three languages', () => {
    expect(productInputSchema.parse({ designation: { en: ' A b ', pt: 'Cd', 'pt-BR': 'Ef ' }, price: 1 })).toEqual({
      designation: { en: 'A b', pt: 'Cd', 'pt-BR': 'Ef' },
      price: 1,
    });
  });

  it('requires each designation, 2 to 120 characters', () => {
    expect(fieldsOf(productInputSchema, { designation: { en: 'X', pt: 'P'.repeat(121) }, price: 1 })).toEqual({
      'designation.en': 'too_short',
      'designation.pt': 'too_long',
      'designation.pt-BR': 'required',
    });
    expect(fieldsOf(productInputSchema, {})).toEqual({ designation: 'required', price: 'required' });
    expect(fieldsOf(productInputSchema, { designation, price: 25 })).toEqual({});
  });
});
