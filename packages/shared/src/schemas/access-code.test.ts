import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { accessCodeInputSchema, accessCodeValidationInputSchema, normalizeAccessCode } from './access-code.ts';
import { fieldErrorsFromIssues } from './fields.ts';

function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsFromIssues(result.error.issues);
}

const code = { code: 'spring-2030', valid_from: '2030-06-01', valid_to: '2030-06-30', included: true };

describe('accessCodeInputSchema', () => {
  it('trims and upper-cases the code; included defaults to false', () => {
    expect(accessCodeInputSchema.parse({ ...code, code: '  spring_2030 ' })).toEqual({ ...code, code: 'SPRING_2030' });
    const { included: _included, ...withoutIncluded } = code;
    expect(accessCodeInputSchema.parse(withoutIncluded).included).toBe(false);
  });

  it('accepts a single day', () => {
    expect(fieldsOf(accessCodeInputSchema, { ...code, valid_to: code.valid_from })).toEqual({});
  });

  it.each([
    [{ valid_from: '2030-07-01' }, { valid_to: 'invalid_value' }],
    [{ code: 'ab' }, { code: 'too_short' }],
    [{ code: 'x'.repeat(41) }, { code: 'too_long' }],
    [{ code: 'two words' }, { code: 'invalid_format' }],
    [{ code: 'código' }, { code: 'invalid_format' }],
    [{ valid_from: '2030-02-30' }, { valid_from: 'invalid_format' }],
    [{ valid_to: '30/06/2030' }, { valid_to: 'invalid_format' }],
    [{ valid_from: '' }, { valid_from: 'required' }],
    [{ included: 'yes' }, { included: 'required' }],
  ])('refuses %j', (change, fields) => {
    expect(fieldsOf(accessCodeInputSchema, { ...code, ...change })).toEqual(fields);
  });
});

describe('access code validation input', () => {
  it('requires a code and compares it trimmed and upper-cased', () => {
    expect(fieldsOf(accessCodeValidationInputSchema, { code: '  ' })).toEqual({ code: 'required' });
    expect(accessCodeValidationInputSchema.parse({ code: ' demo-free ' })).toEqual({ code: 'demo-free' });
    expect(normalizeAccessCode(' demo-free ')).toBe('DEMO-FREE');
  });
});
