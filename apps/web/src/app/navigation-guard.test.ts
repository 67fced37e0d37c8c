import { beforeEach, describe, expect, it } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { authStore } from '../lib/auth-store';
import { storage } from '../lib/storage';
import { guardedEntry, resetNavigationHistory, sessionEntry, trackedEntry } from './navigation-guard';

const args = (path: string) => ({ request: new Request(`http://app.test${path}`), params: {} }) as LoaderFunctionArgs;
const customer = { user_id: 7, type: 'customer' as const, name: 'Rita', email: 'r@x.test', locale: 'en' as const };

const enterCustomer = guardedEntry('Customer', '/customer', true);
const enterLogin = guardedEntry('Login', '/', false);
const enterResetPassword = guardedEntry('ResetPassword', '/resetpassword', false);

function redirectTarget(result: unknown): string | null {
  return result instanceof Response ? result.headers.get('location') : null;
}

describe('navigation guard (docs/product-rules.md#navigation-guard)', () => {
  beforeEach(() => {
    resetNavigationHistory();
    authStore.clear();
    storage.setLanguage('pt-BR');
  });

  it('sends a direct visit to / with the intended path and clears local storage', () => {
    authStore.setSession('token-1', customer);
    window.localStorage.setItem('something.else', 'x');
    const result = enterCustomer(args('/customer'));
    expect(redirectTarget(result)).toBe('/?redirect=%2Fcustomer');
    expect(storage.getToken()).toBeNull();
    expect(window.localStorage.getItem('something.else')).toBeNull();
    expect(storage.getLanguage()).toBe('pt-BR');
  });

  it.each(['Login', 'CustomerData', 'Request Confirmed', 'VetData', 'ManagerData'])(
    'allows entry from %s',
    (origin) => {
      authStore.setSession('token-1', customer);
      trackedEntry(origin)();
      expect(enterCustomer(args('/customer'))).toBeNull();
      expect(storage.getToken()).toBe('token-1');
    },
  );

  it('refuses entry from any other screen', () => {
    authStore.setSession('token-1', customer);
    enterResetPassword(args('/resetpassword'));
    expect(redirectTarget(enterCustomer(args('/customer')))).toBe('/?redirect=%2Fcustomer');
    expect(storage.getToken()).toBeNull();
  });

  it('treats a change within the same screen (its mode) as no entry', () => {
    authStore.setSession('token-1', customer);
    enterLogin(args('/'));
    expect(enterCustomer(args('/customer'))).toBeNull();
    expect(enterCustomer(args('/customer?mode=appointment_req'))).toBeNull();
    expect(storage.getToken()).toBe('token-1');
  });

  it('refuses an allowed origin without a session, and the page of another access type', () => {
    enterLogin(args('/'));
    expect(redirectTarget(enterCustomer(args('/customer')))).toBe('/?redirect=%2Fcustomer');

    authStore.setSession('token-1', customer);
    enterLogin(args('/'));
    const enterManager = guardedEntry('Management', '/manager', true);
    expect(redirectTarget(enterManager(args('/manager')))).toBe('/?redirect=%2Fmanager');
  });

  it('sends own-data screens to login when there is no session', () => {
    expect(redirectTarget(sessionEntry('CustomerData')())).toBe('/');
    authStore.setSession('token-1', customer);
    expect(sessionEntry('CustomerData')()).toBeNull();
  });
});
