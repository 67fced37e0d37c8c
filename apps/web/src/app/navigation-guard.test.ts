import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

/** The browser's account of how this document was loaded (Navigation Timing). */
function documentLoadedBy(type: NavigationTimingType) {
  vi.spyOn(performance, 'getEntriesByType').mockImplementation((entryType) =>
    entryType === 'navigation' ? [{ type } as PerformanceNavigationTiming] : [],
  );
}

describe('navigation guard (docs/product-rules.md#navigation-guard)', () => {
  beforeEach(() => {
    resetNavigationHistory();
    authStore.clear();
    storage.setLanguage('pt-BR');
    window.sessionStorage.clear();
  });
  afterEach(() => {
    vi.restoreAllMocks();
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

  describe('a reload of the page the tab was showing', () => {
    const enterVet = guardedEntry('Vet', '/vet', true);
    const vet = { ...customer, user_id: 8, type: 'vet' as const };

    /** The tab showed /customer, then the page was loaded again by `type`. */
    function showCustomerThenLoadAgain(type: NavigationTimingType) {
      authStore.setSession('token-1', customer);
      enterLogin(args('/'));
      enterCustomer(args('/customer'));
      resetNavigationHistory();
      documentLoadedBy(type);
    }

    it('keeps the person on it, logged in', () => {
      showCustomerThenLoadAgain('reload');
      expect(enterCustomer(args('/customer?mode=appointments'))).toBeNull();
      expect(storage.getToken()).toBe('token-1');
    });

    it('is an entry from outside when the address was typed or followed', () => {
      showCustomerThenLoadAgain('navigate');
      expect(redirectTarget(enterCustomer(args('/customer')))).toBe('/?redirect=%2Fcustomer');
      expect(storage.getToken()).toBeNull();
    });

    it('is an entry from outside on another guarded page', () => {
      showCustomerThenLoadAgain('reload');
      authStore.setSession('token-2', vet);
      expect(redirectTarget(enterVet(args('/vet')))).toBe('/?redirect=%2Fvet');
      expect(storage.getToken()).toBeNull();
    });

    it('is an entry from outside in a tab that showed another page', () => {
      authStore.setSession('token-1', customer);
      enterResetPassword(args('/resetpassword'));
      resetNavigationHistory();
      documentLoadedBy('reload');
      expect(redirectTarget(enterCustomer(args('/customer')))).toBe('/?redirect=%2Fcustomer');
    });

    it('still needs the session: logged out meanwhile (another tab), it goes to /', () => {
      showCustomerThenLoadAgain('reload');
      authStore.clear();
      expect(redirectTarget(enterCustomer(args('/customer')))).toBe('/?redirect=%2Fcustomer');
    });
  });
});
