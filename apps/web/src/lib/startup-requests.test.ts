import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api-client';
import { storage } from './storage';
import { startScreenReads, takeScreenRead } from './startup-requests';

const customer = { user_id: 7, type: 'customer' as const, name: 'Rita', email: 'rita+1@x.test', locale: 'en' as const };

function documentLoadedBy(type: NavigationTimingType) {
  vi.spyOn(performance, 'getEntriesByType').mockImplementation((entryType) =>
    entryType === 'navigation' ? [{ type } as PerformanceNavigationTiming] : [],
  );
}

/** fetch answering each URL with a JSON body, recording what was asked with which authorization. */
function answering(bodies: Record<string, unknown>) {
  const asked: string[] = [];
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    asked.push(`${url} ${(init?.headers as Record<string, string>).authorization ?? ''}`);
    return new Response(JSON.stringify(bodies[url] ?? {}), { headers: { 'content-type': 'application/json' } });
  });
  return { asked, fetch };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the booking screen’s reads, started by the entry', () => {
  beforeEach(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
    storage.setSession('token-1', customer);
    storage.setTabRoute('Customer');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const url of [
      '/api/users/vet',
      '/api/users/customer/byemail/rita%2B1%40x.test',
      '/api/pets/customer/41?lang=en',
    ])
      takeScreenRead(url, 'Bearer token-1');
  });

  it('on a reload of the customer page, asks for the vets, the customer and then their pets, once each', async () => {
    documentLoadedBy('reload');
    const { asked, fetch } = answering({
      '/api/users/customer/byemail/rita%2B1%40x.test': { customer_id: 41, email: customer.email },
      '/api/users/vet': [{ user_id: 3 }],
    });
    startScreenReads({ pathname: '/customer', search: '?lang=en' });
    await settle();
    expect(asked).toEqual([
      '/api/users/vet Bearer token-1',
      '/api/users/customer/byemail/rita%2B1%40x.test Bearer token-1',
      '/api/pets/customer/41?lang=en Bearer token-1',
    ]);
    // The screen's own requests take those answers instead of asking again.
    expect(await apiRequest('/api/users/vet')).toEqual([{ user_id: 3 }]);
    expect(await apiRequest('/api/users/customer/byemail/rita%2B1%40x.test')).toMatchObject({ customer_id: 41 });
    expect(fetch).toHaveBeenCalledTimes(3);
    // Once: a later read goes to the server.
    await apiRequest('/api/users/vet');
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it('is not used by a request with another token', async () => {
    documentLoadedBy('reload');
    answering({});
    startScreenReads({ pathname: '/customer', search: '' });
    expect(takeScreenRead('/api/users/vet', 'Bearer another')).toBeUndefined();
    expect(takeScreenRead('/api/users/vet', 'Bearer token-1')).toBeUndefined();
  });

  it('asks nothing where the page will not show the booking screen', async () => {
    const { fetch } = answering({});
    documentLoadedBy('navigate');
    startScreenReads({ pathname: '/customer', search: '' });
    documentLoadedBy('reload');
    startScreenReads({ pathname: '/customer', search: '?mode=appointments' });
    startScreenReads({ pathname: '/vet', search: '' });
    storage.setTabRoute('CustomerData');
    startScreenReads({ pathname: '/customer', search: '' });
    storage.setTabRoute('Customer');
    storage.setSession('token-2', { ...customer, type: 'vet' });
    startScreenReads({ pathname: '/customer', search: '' });
    await settle();
    expect(fetch).not.toHaveBeenCalled();
  });
});
