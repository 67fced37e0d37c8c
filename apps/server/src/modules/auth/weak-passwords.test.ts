import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCustomer, buildManager } from '../../demo-data/factories.ts';
import { passwordResetTokens, users } from '../../db/schema.ts';
import { generateToken, hashToken } from '../../lib/tokens.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';
import { registrationInput } from '../../../test/registration-input.ts';

/** Passwords people pick first; each is long enough for the length rule and must still be refused. */
const WEAK = ['123456', 'password', 'qwerty', 'aaaaaa', 'password1', 'senha123'];
const STRONG = 'cobalt heron lantern';

const weakAnswer = { error: 'validation_failed', message: expect.any(String), fields: { password: 'weak_password' } };

describe('weak passwords are refused wherever a password is set (issue 15 item 13)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it.each(WEAK)('registration refuses %j with 400 weak_password on the password field, storing nothing', async (p) => {
    const response = await t.app.inject({ method: 'POST', url: '/api/users/customer', payload: registrationInput(p) });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(weakAnswer);
    expect(await t.db.select().from(users)).toEqual([]);
  });

  it('registration refuses a password made of the person’s own email or name', async () => {
    for (const password of ['carla@clinic.test', 'CarlaSousa', 'carla sousa']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/users/customer',
        payload: registrationInput(password),
      });
      expect(response.json().fields, password).toEqual({ password: 'weak_password' });
    }
  });

  it('registration accepts a strong passphrase', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/users/customer',
      payload: registrationInput(STRONG),
    });
    expect(response.statusCode).toBe(201);
  });

  /** A reset link of Rita Almeida's; `update` sets a new password with it. */
  async function resetLink() {
    const { user } = await buildCustomer(t.db, {
      email: 'rita.almeida@clinic.test',
      name: 'Rita Almeida',
      password: 'old passphrase 1',
    });
    const token = generateToken();
    await t.db.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + 60 * 60 * 1000),
    });
    return (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/login/updatepassword', payload: { password, token } });
  }

  it.each(WEAK)('a new password from a reset link refuses %j and keeps the link usable', async (password) => {
    const update = await resetLink();
    const refused = await update(password);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(weakAnswer);
    expect((await update(STRONG)).statusCode).toBe(200);
  });

  it('a new password from a reset link refuses the owner’s own email or name', async () => {
    const update = await resetLink();
    for (const password of ['rita.almeida@clinic.test', 'RitaAlmeida']) {
      const refused = await update(password);
      expect(refused.json(), password).toEqual(weakAnswer);
    }
    expect((await update(STRONG)).statusCode).toBe(200);
  });

  it.each(['vet', 'manager'])('a manager creating a %s cannot give them a weak password', async (type) => {
    await buildManager(t.db, { email: 'boss@clinic.test', password: 'boss passphrase 1' });
    const { headers } = await t.loginAs('boss@clinic.test', 'boss passphrase 1');
    const body = (password: string) => ({
      name: 'Inês Costa',
      email: 'ines@clinic.test',
      password,
      confirmation: password,
      ...(type === 'vet' ? { phone: '214000000', specialty: 'Cardiology' } : {}),
    });
    for (const password of WEAK) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/users/${type}`,
        headers,
        payload: body(password),
      });
      expect(response.statusCode, password).toBe(400);
      expect(response.json(), password).toEqual(weakAnswer);
    }
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/users/${type}`,
      headers,
      payload: body('ines@clinic.test'),
    });
    expect(own.json().fields).toEqual({ password: 'weak_password' });
    expect(await t.db.select().from(users).where(eq(users.email, 'ines@clinic.test'))).toEqual([]);
    const created = await t.app.inject({ method: 'POST', url: `/api/users/${type}`, headers, payload: body(STRONG) });
    expect(created.statusCode).toBe(201);
  });

  it('login never judges strength: an account with an old weak password still logs in', async () => {
    await buildCustomer(t.db, { email: 'old@clinic.test', password: '123456' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/login/',
      payload: { email: 'old@clinic.test', password: '123456' },
    });
    expect(response.statusCode).toBe(200);
  });
});
