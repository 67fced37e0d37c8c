import { networkInterfaces } from 'node:os';
import { expect } from '@playwright/test';

/**
 * Fails unless this process sees no network interface but loopback. The test process shares its network
 * namespace with the server and Chromium (run-journeys.mjs starts them all inside `unshare -n`), so this
 * proves no media packet of the journey can go anywhere but 127.0.0.1 / ::1 (issue 8).
 */
export function expectLoopbackOnly() {
  const interfaces = networkInterfaces();
  expect(
    Object.keys(interfaces),
    'network interfaces: run the journeys with `npm run test:e2e`, which needs `unshare -n` (root or user namespaces)',
  ).toEqual(['lo']);
  const addresses = (interfaces.lo ?? []).map((entry) => entry.address);
  expect(addresses, 'addresses of lo').toContain('127.0.0.1');
  for (const address of addresses) expect(['127.0.0.1', '::1'], 'addresses of lo').toContain(address);
}
