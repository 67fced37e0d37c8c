import type { Locale } from '@vetcall/shared/locales';
import { buildCustomer, buildManager, buildVet } from '../src/demo-data/factories.ts';
import type { TestApp } from './build-test-app.ts';

/** The password of the people oneOfEachRole makes. */
export const ROLE_PASSWORD = 'secret-pass';

export type Role = 'customer' | 'vet' | 'manager' | 'none';
export type Headers = Record<string, string>;
export const ROLES: Role[] = ['customer', 'vet', 'manager', 'none'];

/**
 * A manager (boss@clinic.test), a vet (vet@clinic.test) and a customer (ana@clinic.test), each logged in, and
 * `none`: no session. The role tests of a module ask each of them in turn.
 */
export async function oneOfEachRole(t: TestApp, options: { customerLocale?: Locale } = {}) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: ROLE_PASSWORD });
  const vet = await buildVet(t.db, { email: 'vet@clinic.test', password: ROLE_PASSWORD });
  const customer = await buildCustomer(t.db, {
    email: 'ana@clinic.test',
    password: ROLE_PASSWORD,
    ...(options.customerLocale ? { locale: options.customerLocale } : {}),
  });
  const headers: Record<Role, Headers> = {
    manager: (await t.loginAs('boss@clinic.test', ROLE_PASSWORD)).headers,
    vet: (await t.loginAs('vet@clinic.test', ROLE_PASSWORD)).headers,
    customer: (await t.loginAs('ana@clinic.test', ROLE_PASSWORD)).headers,
    none: {},
  };
  return { manager, vet, customer, headers };
}
