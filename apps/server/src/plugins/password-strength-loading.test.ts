import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loginInputSchema, updatePasswordSchema } from '@vetcall/shared/schemas/auth';
import { customerProfileSchema, customerRegistrationSchema } from '@vetcall/shared/schemas/customer';
import { newStaffBodySchema } from '@vetcall/shared/schemas/staff';
import { registrationInput } from '../../test/registration-input.ts';
import { scoresNewPassword } from './password-strength-loading.ts';

/**
 * Fresh copies of the modules that hold the loaded dictionaries, as in a server just started: test files share
 * a worker's modules, and another file may have loaded them already.
 */
async function freshModules() {
  vi.resetModules();
  const strength = await import('@vetcall/shared/password-strength');
  expect(strength.isPasswordStrengthLoaded()).toBe(false);
  return strength;
}

describe('password dictionaries loaded on first use', () => {
  afterEach(() => {
    vi.resetModules();
  });

  it('finds the body schemas that score a new password, and only those', () => {
    expect(scoresNewPassword(customerRegistrationSchema)).toBe(true);
    expect(scoresNewPassword(updatePasswordSchema)).toBe(true);
    expect(scoresNewPassword(customerRegistrationSchema.optional())).toBe(true);
    expect(scoresNewPassword(loginInputSchema)).toBe(false);
    expect(scoresNewPassword(customerProfileSchema)).toBe(false);
    // Staff creation checks its body in the service (staff.service.ts loads the dictionaries there).
    expect(scoresNewPassword(newStaffBodySchema)).toBe(false);
    expect(scoresNewPassword(undefined)).toBe(false);
  });

  it('a route that sets a password loads them before validating its first body, and refuses a weak password', async () => {
    const strength = await freshModules();
    const { registerPasswordStrengthLoading } = await import('./password-strength-loading.ts');
    const schemas = await import('@vetcall/shared/schemas/customer');
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    registerPasswordStrengthLoading(app);
    app.post('/register', { schema: { body: schemas.customerRegistrationSchema } }, async () => ({ ok: true }));
    app.post('/login', { schema: { body: (await import('@vetcall/shared/schemas/auth')).loginInputSchema } }, () => ({
      ok: true,
    }));
    try {
      const login = await app.inject({ method: 'POST', url: '/login', payload: { email: 'a@b.test', password: 'x' } });
      expect(login.statusCode).toBe(200);
      expect(strength.isPasswordStrengthLoaded()).toBe(false);

      const weak = await app.inject({ method: 'POST', url: '/register', payload: registrationInput('password1') });
      expect(weak.statusCode).toBe(400);
      expect(weak.body).toContain('weak_password');
      expect(strength.isPasswordStrengthLoaded()).toBe(true);
      const strong = await app.inject({ method: 'POST', url: '/register', payload: registrationInput() });
      expect(strong.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('staff creation loads them before checking its body', async () => {
    await freshModules();
    const { createStaffUser } = await import('../modules/staff/staff.service.ts');
    const manager = { userId: 1, type: 'manager', name: 'M', email: 'm@clinic.test', locale: 'en', sessionId: 1 };
    const body = { name: 'Rui Vet', email: 'rui@clinic.test', password: 'password1', confirmation: 'password1' };
    await expect(createStaffUser({} as never, manager as never, 'manager', body)).rejects.toMatchObject({
      code: 'validation_failed',
      fields: { password: 'weak_password' },
    });
  });
});
