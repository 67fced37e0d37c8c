import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { isStrongEnough, loadPasswordStrength, MIN_PASSWORD_SCORE, passwordScore } from './password-strength.ts';
import { newPasswordFormSchema, updatePasswordSchema } from './schemas/auth.ts';
import { customerRegistrationSchema } from './schemas/customer.ts';
import { fieldErrorsFromIssues } from './schemas/fields.ts';
import { newManagerSchema } from './schemas/staff.ts';

function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? {} : fieldErrorsFromIssues(result.error.issues);
}

describe('password strength before the dictionaries are loaded', () => {
  it('has no score and refuses nothing, so a form checked early is left to the server', () => {
    expect(passwordScore('123456')).toBeUndefined();
    expect(isStrongEnough('123456')).toBe(true);
  });
});

describe('password strength (zxcvbn, common + en + pt-BR)', () => {
  beforeAll(async () => {
    await loadPasswordStrength();
  });

  it('refuses the passwords of issue 15 and other favourites, all long enough for the length rule', () => {
    for (const password of ['123456', 'password', 'qwerty', 'aaaaaa', 'abcdef', '111111', 'senha123', 'iloveyou']) {
      expect(passwordScore(password), password).toBeLessThan(MIN_PASSWORD_SCORE);
      expect(isStrongEnough(password), password).toBe(false);
    }
  });

  it('accepts passphrases and the demo password of the demo accounts', () => {
    for (const password of ['cobalt heron lantern', 'tidal pebble 3', 'Tr0ub4dor&3x!']) {
      expect(isStrongEnough(password), password).toBe(true);
    }
    for (const [email, name] of [
      ['customer@vetcall.test', 'Rita Carvalho'],
      ['manager@vetcall.test', 'Marta Ferreira'],
      ['vet@vetcall.test', 'Dr. João Silva'],
    ]) {
      expect(isStrongEnough('vetcall-demo', [email!, name!]), email).toBe(true);
    }
  });

  it('counts the person’s email and name, and their parts, as guessable words', () => {
    const inputs = ['carla.sousa@clinic.test', 'Carla Sousa'];
    expect(isStrongEnough('carla.sousa@clinic.test')).toBe(true);
    for (const password of ['carla.sousa@clinic.test', 'CarlaSousa', 'carlasousa1', 'Carla Sousa!']) {
      expect(isStrongEnough(password, inputs), password).toBe(false);
    }
    // The domain is the clinic's, not the person's.
    expect(isStrongEnough('clinic test wren', inputs)).toBe(true);
  });

  it('puts weak_password on the password field of every form that sets one, never on the confirmation', () => {
    const registration = {
      name: 'Carla Sousa',
      email: 'carla.sousa@clinic.test',
      phone: '934567890',
      tax_id: '987654321',
      address: 'Avenida da Boavista 100',
      postal_code: '4100-112',
      city: 'Porto',
      state: 'Porto',
      country: 'PT',
    };
    const weak = { password: 'qwerty', confirmation: 'qwerty' };
    expect(fieldsOf(customerRegistrationSchema, { ...registration, ...weak })).toEqual({ password: 'weak_password' });
    expect(fieldsOf(newManagerSchema, { name: 'Paulo', email: 'paulo@clinic.test', ...weak })).toEqual({
      password: 'weak_password',
    });
    expect(fieldsOf(newPasswordFormSchema, weak)).toEqual({ password: 'weak_password' });
    expect(fieldsOf(updatePasswordSchema, { password: 'qwerty', token: 't' })).toEqual({ password: 'weak_password' });

    // The form's own email and name, once the password passes alone.
    const own = { password: 'carlasousa1', confirmation: 'carlasousa1' };
    expect(fieldsOf(customerRegistrationSchema, { ...registration, ...own })).toEqual({ password: 'weak_password' });
    // …and together with other fields' codes.
    expect(fieldsOf(customerRegistrationSchema, { ...registration, phone: '1', ...own })).toEqual({
      phone: 'too_short',
      password: 'weak_password',
    });

    const strong = { password: 'cobalt heron lantern', confirmation: 'cobalt heron lantern' };
    expect(customerRegistrationSchema.safeParse({ ...registration, ...strong }).success).toBe(true);
  });

  it('scores crafted long passwords in bounded time (the server scores them on its event loop)', () => {
    const crafted = ['1qaz2wsx', 'P@ssw0rd', 'abc123', '2019-01-01', '4@3€1!0$5'].map((unit) =>
      unit.repeat(Math.ceil(128 / unit.length)).slice(0, 128),
    );
    const started = performance.now();
    for (const password of crafted) expect(passwordScore(password), password).toBeDefined();
    // Seconds each with zxcvbn's defaults; tens of milliseconds each now, with room for a busy machine.
    expect(performance.now() - started).toBeLessThan(3000);
    expect(isStrongEnough('P4$$w0rd!')).toBe(false);
  });

  it('answers a body that is not an object with its type issue, not an exception', () => {
    for (const body of [null, 'x', 42, []]) {
      expect(customerRegistrationSchema.safeParse(body).success).toBe(false);
      expect(newManagerSchema.safeParse(body).success).toBe(false);
    }
  });

  it('keeps the length rules first: a short password is too_short, not weak', () => {
    expect(fieldsOf(newPasswordFormSchema, { password: '12345', confirmation: '12345' })).toEqual({
      password: 'too_short',
      confirmation: 'too_short',
    });
  });
});
