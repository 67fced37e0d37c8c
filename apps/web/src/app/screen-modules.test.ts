import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '@vetcall/shared/routes';
import { routes } from './router';
import { EXTRA_SCREEN_PATHS, screenAt } from './screen-modules';

/** A concrete address of a route path: each parameter given a value. */
const addressOf = (path: string) => path.replace(/\/:[^/]+/g, '/x7Kq');

describe('the screen the entry preloads for a page', () => {
  it('is the screen of each route of the table, with its parameters, any case and a trailing slash', () => {
    for (const route of ROUTES) {
      const address = addressOf(route.path);
      expect(screenAt(address), address).toBe(route.name);
      expect(screenAt(`${address.toUpperCase()}/`.replace('//', '/')), address).toBe(route.name);
    }
    expect(screenAt('/appointment')).toBe('Appointment');
    expect(screenAt('/appointment/123456')).toBe('Appointment');
    expect(screenAt('/requestsent/abc')).toBe('Request Sent');
  });

  it('is the screen of the pages beyond the table, and NotFound for any other path', () => {
    for (const [name, path] of Object.entries(EXTRA_SCREEN_PATHS)) expect(screenAt(addressOf(path))).toBe(name);
    expect(screenAt('/requestsent')).toBe('NotFound');
    expect(screenAt('/appointment/1/2')).toBe('NotFound');
    expect(screenAt('/customer/extra')).toBe('NotFound');
    expect(screenAt('/nowhere')).toBe('NotFound');
  });

  it('agrees with the router on which route each address shows', () => {
    const addresses = [...ROUTES.map((route) => route.path), ...Object.values(EXTRA_SCREEN_PATHS)].map(addressOf);
    for (const address of [...addresses, '/appointment', '/nowhere', '/customer/extra']) {
      const matched = matchRoutes(routes, address)?.at(-1)?.route;
      const routerPath = matched?.path ?? '';
      const expected = routerPath === '*' ? 'NotFound' : screenAt(addressOf(routerPath));
      expect(screenAt(address), address).toBe(expected);
    }
  });
});
