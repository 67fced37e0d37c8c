import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '../constants.ts';
import {
  customerProfileSchema,
  customerRegistrationSchema,
  customerSchema,
  emailCheckResponseSchema,
} from './customer.ts';
import { fieldErrorsFromIssues } from './fields.ts';

/** The per-field codes the server would answer for an input (what the form shows too). */
function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return fieldErrorsFromIssues(result.error.issues);
}

const profile = {
  name: 'Ana Silva',
  email: 'ana@clinic.test',
  phone: '912345678',
  tax_id: '123456789',
  address: 'Rua Augusta 1',
  postal_code: '1100-048',
  city: 'Lisboa',
  state: 'Lisboa',
  country: 'PT',
};

const registration = { ...profile, password: 'secret-pass', confirmation: 'secret-pass' };

describe('customerProfileSchema (docs/product-rules.md#validation Customer registration and editing)', () => {
  it('accepts a complete profile, trimming text, lower-casing the email and defaulting vet_center to ""', () => {
    const parsed = customerProfileSchema.parse({
      ...profile,
      name: '  Ana Silva ',
      email: '  Ana@Clinic.TEST ',
      city: ' Lisboa ',
    });
    expect(parsed).toEqual({ ...profile, vet_center: '' });
  });

  it('keeps a given vet_center (optional) and refuses one over 120 characters', () => {
    expect(customerProfileSchema.parse({ ...profile, vet_center: ' Clínica Norte ' }).vet_center).toBe('Clínica Norte');
    expect(fieldsOf(customerProfileSchema, { ...profile, vet_center: 'x'.repeat(121) })).toEqual({
      vet_center: 'too_long',
    });
  });

  it.each(['name', 'email', 'phone', 'tax_id', 'address', 'postal_code', 'city', 'state', 'country'] as const)(
    'requires %s (missing, empty or blank)',
    (field) => {
      const { [field]: _omitted, ...without } = profile;
      expect(fieldsOf(customerProfileSchema, without)).toEqual({ [field]: 'required' });
      expect(fieldsOf(customerProfileSchema, { ...profile, [field]: '' })).toEqual({ [field]: 'required' });
      expect(fieldsOf(customerProfileSchema, { ...profile, [field]: '   ' })).toEqual({ [field]: 'required' });
    },
  );

  it('reports every missing field at once', () => {
    expect(fieldsOf(customerProfileSchema, {})).toEqual({
      name: 'required',
      email: 'required',
      phone: 'required',
      tax_id: 'required',
      address: 'required',
      postal_code: 'required',
      city: 'required',
      state: 'required',
      country: 'required',
    });
  });

  it('needs a name of at least 2 characters (after trimming)', () => {
    expect(fieldsOf(customerProfileSchema, { ...profile, name: 'A' })).toEqual({ name: 'too_short' });
    expect(fieldsOf(customerProfileSchema, { ...profile, name: ' A ' })).toEqual({ name: 'too_short' });
    expect(fieldsOf(customerProfileSchema, { ...profile, name: 'Al' })).toEqual({});
    expect(fieldsOf(customerProfileSchema, { ...profile, name: 'x'.repeat(121) })).toEqual({ name: 'too_long' });
  });

  it('needs a phone of at least 6 characters', () => {
    expect(fieldsOf(customerProfileSchema, { ...profile, phone: '12345' })).toEqual({ phone: 'too_short' });
    expect(fieldsOf(customerProfileSchema, { ...profile, phone: '123456' })).toEqual({});
    expect(fieldsOf(customerProfileSchema, { ...profile, phone: '1'.repeat(31) })).toEqual({ phone: 'too_long' });
  });

  it.each(['not-an-email', 'ana@', '@clinic.test', 'ana clinic@test.pt'])('refuses the email %j', (email) => {
    expect(fieldsOf(customerProfileSchema, { ...profile, email })).toEqual({ email: 'invalid_email' });
  });

  it('bounds the email length', () => {
    const long = `${'a'.repeat(MAX_EMAIL_LENGTH - '@clinic.test'.length + 1)}@clinic.test`;
    expect(fieldsOf(customerProfileSchema, { ...profile, email: long })).toEqual({ email: 'too_long' });
  });

  it('refuses wrong types with "required"', () => {
    expect(fieldsOf(customerProfileSchema, { ...profile, name: 42, phone: null })).toEqual({
      name: 'required',
      phone: 'required',
    });
  });

  it('accepts only the countries with a postal code lookup (PT, US, BR)', () => {
    expect(customerProfileSchema.safeParse({ ...profile, country: 'US', postal_code: '90210' }).success).toBe(true);
    expect(customerProfileSchema.safeParse({ ...profile, country: 'BR', postal_code: '01310-100' }).success).toBe(true);
    for (const country of ['ES', 'pt', 'Portugal']) {
      expect(fieldsOf(customerProfileSchema, { ...profile, country }), country).toHaveProperty('country');
    }
  });

  describe('postal code by country (docs/product-rules.md#validation Postal code)', () => {
    it.each([
      ['PT', '1100-048'],
      ['PT', '4000-001'],
      ['US', '90210'],
      ['US', '00501'],
      ['BR', '01310-100'],
      ['BR', '20040-020'],
    ])('accepts %s %s', (country, postal_code) => {
      expect(fieldsOf(customerProfileSchema, { ...profile, country, postal_code })).toEqual({});
    });

    it.each([
      // Portugal: NNNN-NNN
      ['PT', '1100048'],
      ['PT', '1100-48'],
      ['PT', '11000-048'],
      ['PT', '1100 048'],
      ['PT', 'ABCD-EFG'],
      ['PT', '90210'],
      ['PT', '01310-100'],
      // United States: five digits
      ['US', '9021'],
      ['US', '902101'],
      ['US', '90210-1234'],
      ['US', '1100-048'],
      ['US', 'ABCDE'],
      // Brazil: NNNNN-NNN
      ['BR', '01310100'],
      ['BR', '0131-0100'],
      ['BR', '01310-10'],
      ['BR', '1100-048'],
      ['BR', '90210'],
    ])('refuses %s %s with postal_code invalid_format', (country, postal_code) => {
      expect(fieldsOf(customerProfileSchema, { ...profile, country, postal_code })).toEqual({
        postal_code: 'invalid_format',
      });
    });

    it('is reported together with the other fields that fail', () => {
      expect(fieldsOf(customerProfileSchema, { ...profile, name: 'A', postal_code: '90210' })).toEqual({
        name: 'too_short',
        postal_code: 'invalid_format',
      });
    });

    it('trims the code before matching it', () => {
      expect(customerProfileSchema.parse({ ...profile, postal_code: ' 1100-048 ' }).postal_code).toBe('1100-048');
    });
  });

  it('does not accept or return a password on profile edits', () => {
    const parsed = customerProfileSchema.parse({ ...profile, password: 'sneaky-pass', passwordHash: 'x' });
    expect(parsed).not.toHaveProperty('password');
    expect(parsed).not.toHaveProperty('passwordHash');
  });
});

describe('customerRegistrationSchema', () => {
  it('accepts a registration with password and matching confirmation; the locale is optional', () => {
    expect(customerRegistrationSchema.parse(registration)).toEqual({ ...registration, vet_center: '' });
    expect(customerRegistrationSchema.parse({ ...registration, locale: 'pt-BR' }).locale).toBe('pt-BR');
    expect(fieldsOf(customerRegistrationSchema, { ...registration, locale: 'fr' })).toHaveProperty('locale');
  });

  it('requires password and confirmation', () => {
    const { password: _p, confirmation: _c, ...without } = registration;
    expect(fieldsOf(customerRegistrationSchema, without)).toEqual({ password: 'required', confirmation: 'required' });
    expect(fieldsOf(customerRegistrationSchema, { ...registration, password: '', confirmation: '' })).toEqual({
      password: 'required',
      confirmation: 'required',
    });
  });

  it('needs passwords of at least 6 characters, at most 128, kept as typed (not trimmed)', () => {
    expect(fieldsOf(customerRegistrationSchema, { ...registration, password: '12345', confirmation: '12345' })).toEqual(
      { password: 'too_short', confirmation: 'too_short' },
    );
    const long = 'x'.repeat(MAX_PASSWORD_LENGTH + 1);
    expect(fieldsOf(customerRegistrationSchema, { ...registration, password: long, confirmation: long })).toEqual({
      password: 'too_long',
      confirmation: 'too_long',
    });
    const spaced = customerRegistrationSchema.parse({
      ...registration,
      password: ' pass 1 ',
      confirmation: ' pass 1 ',
    });
    expect(spaced.password).toBe(' pass 1 ');
  });

  it('refuses a confirmation that differs from the password with confirmation passwords_mismatch', () => {
    expect(fieldsOf(customerRegistrationSchema, { ...registration, confirmation: 'secret-pasS' })).toEqual({
      confirmation: 'passwords_mismatch',
    });
    expect(fieldsOf(customerRegistrationSchema, { ...registration, confirmation: 'secret-pass ' })).toEqual({
      confirmation: 'passwords_mismatch',
    });
  });

  it('applies the profile rules too, postal code by country included', () => {
    expect(fieldsOf(customerRegistrationSchema, { ...registration, name: 'A', phone: '123' })).toEqual({
      name: 'too_short',
      phone: 'too_short',
    });
    expect(fieldsOf(customerRegistrationSchema, { ...registration, country: 'US', postal_code: '1100-048' })).toEqual({
      postal_code: 'invalid_format',
    });
  });
});

describe('answer schemas', () => {
  it('the customer answer has no password field, and strips one if present', () => {
    expect(Object.keys(customerSchema.shape)).not.toContain('password');
    const parsed = customerSchema.parse({
      user_id: 1,
      customer_id: 2,
      ...profile,
      vet_center: '',
      password: 'x',
      passwordHash: 'y',
    });
    expect(parsed).not.toHaveProperty('password');
    expect(parsed).not.toHaveProperty('passwordHash');
  });

  it('the email check answers a list of {email}', () => {
    expect(emailCheckResponseSchema.parse([])).toEqual([]);
    expect(emailCheckResponseSchema.parse([{ email: 'a@b.pt' }])).toEqual([{ email: 'a@b.pt' }]);
  });
});
