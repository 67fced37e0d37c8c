import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from '../constants.ts';
import { fieldErrorsFromIssues } from './fields.ts';
import {
  emailUpdateSchema,
  managerProfileSchema,
  nameUpdateSchema,
  newManagerSchema,
  newStaffBodySchema,
  newVetSchema,
  phoneUpdateSchema,
  publicVetSchema,
  specialtyUpdateSchema,
  staffTypeParamsSchema,
  userIdParamsSchema,
  userRowSchema,
  userTypeParamsSchema,
  vetProfileSchema,
  vetRecordSchema,
  vetSchema,
} from './staff.ts';

/** The per-field codes the server would answer for an input (what the form shows too). */
function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return fieldErrorsFromIssues(result.error.issues);
}

const newVet = {
  name: 'Inês Costa',
  email: 'ines@clinic.test',
  password: 'new-secret',
  confirmation: 'new-secret',
  phone: '214000000',
  specialty: 'Cardiology',
};
const newManager = { name: 'Paulo', email: 'paulo@clinic.test', password: 'new-secret', confirmation: 'new-secret' };
const vetProfile = {
  name: 'Rui',
  email: 'vet.rui@clinic.test',
  phone: '213456789',
  specialty: 'Orthopaedics',
  discount: 10,
};

describe('newVetSchema (docs/product-rules.md#validation New user, a vet)', () => {
  it('accepts a complete vet, trimming text and lower-casing the email; passwords stay as typed', () => {
    expect(
      newVetSchema.parse({
        ...newVet,
        name: '  Inês Costa ',
        email: ' Ines@Clinic.TEST ',
        phone: ' 214000000 ',
        specialty: ' Cardiology ',
        password: ' new secret ',
        confirmation: ' new secret ',
      }),
    ).toEqual({ ...newVet, password: ' new secret ', confirmation: ' new secret ' });
  });

  it('reports every missing field at once, all six required', () => {
    expect(fieldsOf(newVetSchema, {})).toEqual({
      name: 'required',
      email: 'required',
      password: 'required',
      confirmation: 'required',
      phone: 'required',
      specialty: 'required',
    });
  });

  it.each(['name', 'email', 'phone', 'specialty'] as const)('requires %s (missing, empty or blank)', (field) => {
    const { [field]: _omitted, ...without } = newVet;
    expect(fieldsOf(newVetSchema, without)).toEqual({ [field]: 'required' });
    expect(fieldsOf(newVetSchema, { ...newVet, [field]: '' })).toEqual({ [field]: 'required' });
    expect(fieldsOf(newVetSchema, { ...newVet, [field]: '   ' })).toEqual({ [field]: 'required' });
  });

  it.each([
    ['name', 'I', 'Zé'],
    ['phone', '12345', '123456'],
    ['specialty', 'Derma', 'Dermat'],
  ] as const)('needs %s of the minimum length (%j too short, %j enough)', (field, short, enough) => {
    expect(fieldsOf(newVetSchema, { ...newVet, [field]: short })).toEqual({ [field]: 'too_short' });
    expect(fieldsOf(newVetSchema, { ...newVet, [field]: ` ${short} ` })).toEqual({ [field]: 'too_short' });
    expect(fieldsOf(newVetSchema, { ...newVet, [field]: enough })).toEqual({});
  });

  it('bounds name, phone and specialty', () => {
    expect(fieldsOf(newVetSchema, { ...newVet, name: 'x'.repeat(121) })).toEqual({ name: 'too_long' });
    expect(fieldsOf(newVetSchema, { ...newVet, phone: '1'.repeat(31) })).toEqual({ phone: 'too_long' });
    expect(fieldsOf(newVetSchema, { ...newVet, specialty: 'x'.repeat(121) })).toEqual({ specialty: 'too_long' });
  });

  it('needs a password of at least 6, at most the maximum', () => {
    expect(fieldsOf(newVetSchema, { ...newVet, password: '12345', confirmation: '12345' })).toEqual({
      password: 'too_short',
      confirmation: 'too_short',
    });
    expect(fieldsOf(newVetSchema, { ...newVet, password: '123456', confirmation: '123456' })).toEqual({});
    const long = 'x'.repeat(MAX_PASSWORD_LENGTH + 1);
    expect(fieldsOf(newVetSchema, { ...newVet, password: long, confirmation: long })).toEqual({
      password: 'too_long',
      confirmation: 'too_long',
    });
  });

  it('puts passwords_mismatch on the confirmation, also next to other failing fields', () => {
    expect(fieldsOf(newVetSchema, { ...newVet, confirmation: 'new-secreT' })).toEqual({
      confirmation: 'passwords_mismatch',
    });
    expect(fieldsOf(newVetSchema, { ...newVet, name: 'I', confirmation: 'other-secret' })).toEqual({
      name: 'too_short',
      confirmation: 'passwords_mismatch',
    });
    // Passwords are compared as typed: a trailing space makes them differ.
    expect(fieldsOf(newVetSchema, { ...newVet, confirmation: 'new-secret ' })).toEqual({
      confirmation: 'passwords_mismatch',
    });
  });

  it.each(['not-an-email', 'ines@', '@clinic.test', 'ines clinic@test.pt'])('refuses the email %j', (email) => {
    expect(fieldsOf(newVetSchema, { ...newVet, email })).toEqual({ email: 'invalid_email' });
  });

  it('bounds the email length', () => {
    const long = `${'a'.repeat(MAX_EMAIL_LENGTH - '@clinic.test'.length + 1)}@clinic.test`;
    expect(fieldsOf(newVetSchema, { ...newVet, email: long })).toEqual({ email: 'too_long' });
  });

  it('refuses wrong types with "required"', () => {
    expect(fieldsOf(newVetSchema, { ...newVet, name: 42, phone: 214000000, specialty: null })).toEqual({
      name: 'required',
      phone: 'required',
      specialty: 'required',
    });
  });
});

describe('newManagerSchema (docs/product-rules.md#validation New user, a manager)', () => {
  it('accepts a manager without phone or specialty, and drops them when sent', () => {
    expect(newManagerSchema.parse(newManager)).toEqual(newManager);
    expect(newManagerSchema.parse({ ...newManager, phone: '214000000', specialty: 'Cardiology' })).toEqual(newManager);
  });

  it('requires name, email, password and confirmation only', () => {
    expect(fieldsOf(newManagerSchema, {})).toEqual({
      name: 'required',
      email: 'required',
      password: 'required',
      confirmation: 'required',
    });
  });

  it('applies the same rules as for vets: name 2, valid email, password 6, matching confirmation', () => {
    expect(fieldsOf(newManagerSchema, { ...newManager, name: 'P' })).toEqual({ name: 'too_short' });
    expect(fieldsOf(newManagerSchema, { ...newManager, email: 'paulo@' })).toEqual({ email: 'invalid_email' });
    expect(fieldsOf(newManagerSchema, { ...newManager, password: 'abcde', confirmation: 'abcde' })).toEqual({
      password: 'too_short',
      confirmation: 'too_short',
    });
    expect(fieldsOf(newManagerSchema, { ...newManager, confirmation: 'other-secret' })).toEqual({
      confirmation: 'passwords_mismatch',
    });
  });
});

describe('newStaffBodySchema (the route body, checked by type later)', () => {
  it('lets any subset of string fields through, so the per-type schema can name what is missing', () => {
    expect(newStaffBodySchema.safeParse({}).success).toBe(true);
    expect(newStaffBodySchema.safeParse(newVet).success).toBe(true);
    expect(newStaffBodySchema.parse({ ...newManager, active: false, type: 'manager' })).toEqual(newManager);
  });

  it('refuses non-string values', () => {
    expect(fieldsOf(newStaffBodySchema, { phone: 214000000 })).toEqual({ phone: 'required' });
  });
});

describe('vetProfileSchema (docs/product-rules.md#vet-screens /vetdata, #validation Vet discount)', () => {
  it('accepts a complete profile, trimming text and lower-casing the email', () => {
    expect(
      vetProfileSchema.parse({
        ...vetProfile,
        name: ' Rui ',
        email: 'Vet.Rui@Clinic.test',
        specialty: ' Orthopaedics ',
      }),
    ).toEqual(vetProfile);
  });

  it('requires every field', () => {
    expect(fieldsOf(vetProfileSchema, {})).toEqual({
      name: 'required',
      email: 'required',
      phone: 'required',
      specialty: 'required',
      discount: 'required',
    });
  });

  it.each([0, 5, 10, 25, 50, 95, 100])('accepts the discount %i (0 to 100, step 5)', (discount) => {
    expect(fieldsOf(vetProfileSchema, { ...vetProfile, discount })).toEqual({});
  });

  it.each([
    [7, 'invalid_format'],
    [1, 'invalid_format'],
    [99, 'invalid_format'],
    [12.5, 'invalid_format'],
    [5.0000001, 'invalid_format'],
    [105, 'too_big'],
    [103, 'too_big'],
    [1000, 'too_big'],
    [-5, 'too_small'],
    [-1, 'too_small'],
    ['10', 'required'],
    [null, 'required'],
    [Number.NaN, 'required'],
    [Number.POSITIVE_INFINITY, 'required'],
  ])('refuses the discount %j with %s', (discount, code) => {
    expect(fieldsOf(vetProfileSchema, { ...vetProfile, discount })).toEqual({ discount: code });
  });

  it('needs phone and specialty of at least 6, name of at least 2', () => {
    expect(fieldsOf(vetProfileSchema, { ...vetProfile, name: 'R', phone: '12345', specialty: 'Derma' })).toEqual({
      name: 'too_short',
      phone: 'too_short',
      specialty: 'too_short',
    });
  });
});

describe('the single-field edits (docs/product-rules.md#api Users)', () => {
  it.each([
    ['name', nameUpdateSchema, { name: ' Rui Santos ' }, { name: 'Rui Santos' }],
    ['email', emailUpdateSchema, { email: ' Rui@Clinic.TEST ' }, { email: 'rui@clinic.test' }],
    ['specialty', specialtyUpdateSchema, { specialty: ' Surgery ' }, { specialty: 'Surgery' }],
    ['phone', phoneUpdateSchema, { phone: ' 218888888 ' }, { phone: '218888888' }],
  ] as const)('%s: trims (and lower-cases an email), dropping anything else', (_field, schema, input, output) => {
    expect((schema as z.ZodType).parse({ ...input, active: false, type: 'manager', password: 'x' })).toEqual(output);
  });

  it.each([
    [nameUpdateSchema, { name: 'R' }, { name: 'too_short' }],
    [nameUpdateSchema, {}, { name: 'required' }],
    [emailUpdateSchema, { email: 'rui@' }, { email: 'invalid_email' }],
    [emailUpdateSchema, { email: '  ' }, { email: 'required' }],
    [specialtyUpdateSchema, { specialty: 'Derma' }, { specialty: 'too_short' }],
    [phoneUpdateSchema, { phone: '12345' }, { phone: 'too_short' }],
    [phoneUpdateSchema, { phone: 218888888 }, { phone: 'required' }],
  ])('refuses %#: %j', (schema, input, fields) => {
    expect(fieldsOf(schema, input)).toEqual(fields);
  });
});

describe('managerProfileSchema (docs/product-rules.md#manager-screens /managerdata)', () => {
  it('takes a name and an email, nothing else', () => {
    expect(
      managerProfileSchema.parse({ name: ' Marta ', email: 'Boss@Clinic.test', phone: '1', active: false }),
    ).toEqual({ name: 'Marta', email: 'boss@clinic.test' });
    expect(fieldsOf(managerProfileSchema, { name: 'M', email: 'boss' })).toEqual({
      name: 'too_short',
      email: 'invalid_email',
    });
  });
});

describe('route parameters', () => {
  it.each(['customer', 'vet', 'manager'])('GET /api/users/{type} accepts %s', (type) => {
    expect(userTypeParamsSchema.parse({ type })).toEqual({ type });
  });

  it.each(['admin', 'vets', 'Vet', ''])('GET /api/users/{type} refuses %j with invalid_value', (type) => {
    expect(fieldsOf(userTypeParamsSchema, { type })).toEqual({ type: 'invalid_value' });
  });

  it('POST /api/users/{type} takes vet or manager only (customers register themselves)', () => {
    expect(staffTypeParamsSchema.parse({ type: 'vet' })).toEqual({ type: 'vet' });
    expect(staffTypeParamsSchema.parse({ type: 'manager' })).toEqual({ type: 'manager' });
    expect(fieldsOf(staffTypeParamsSchema, { type: 'customer' })).toEqual({ type: 'invalid_value' });
  });

  it('user_id is a positive integer, coerced from the path', () => {
    expect(userIdParamsSchema.parse({ user_id: '12' })).toEqual({ user_id: 12 });
    for (const user_id of ['0', '-3', '1.5', 'abc']) {
      expect(userIdParamsSchema.safeParse({ user_id }).success, user_id).toBe(false);
    }
  });
});

describe('answer shapes', () => {
  const vetRow = {
    user_id: 3,
    type: 'vet',
    name: 'Rui',
    email: 'vet.rui@clinic.test',
    active: true,
    phone: '213456789',
    vet_id: 1,
    specialty: 'Orthopaedics',
    discount: 10,
    calendar_linked: true,
  };

  it('the public vet view keeps only user_id, vet_id, name and specialty, whatever it is given', () => {
    expect(publicVetSchema.parse({ ...vetRow, vet_id: 1 })).toStrictEqual({
      user_id: 3,
      vet_id: 1,
      name: 'Rui',
      specialty: 'Orthopaedics',
    });
    expect(Object.keys(publicVetSchema.shape).sort()).toEqual(['name', 'specialty', 'user_id', 'vet_id']);
  });

  it('a user row never carries a password hash or the calendar token', () => {
    const parsed = userRowSchema.parse({ ...vetRow, password_hash: '$argon2id$x', account_token: 'tok' });
    expect(parsed).toStrictEqual(vetRow);
  });

  it('the vet view carries calendar_linked, never the token', () => {
    const vet = {
      user_id: 3,
      vet_id: 1,
      name: 'Rui',
      email: 'vet.rui@clinic.test',
      phone: '213456789',
      specialty: 'Orthopaedics',
      discount: 10,
      calendar_linked: false,
      locale: 'pt',
    };
    expect(vetSchema.parse({ ...vet, account_token: 'tok' })).toStrictEqual(vet);
  });

  it('a vet record names the vet publicly (no email or phone)', () => {
    const record = vetRecordSchema.parse({
      vet: { ...vetRow, vet_id: 1 },
      appointments: [],
      next_cursor: null,
    });
    expect(record).toStrictEqual({
      vet: { user_id: 3, vet_id: 1, name: 'Rui', specialty: 'Orthopaedics' },
      appointments: [],
      next_cursor: null,
    });
  });
});
