import { describe, expect, it } from 'vitest';
import { acceptsGzip } from './accept-encoding.ts';

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br, zstd', true],
    ['GZIP', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['gzip;q=0', false],
    ['gzip; q=0, br', false],
    ['br, zstd', false],
    ['identity', false],
    ['', false],
    [undefined, false],
  ] as const)('%s → %s, the same when asked again', (header, accepts) => {
    expect(acceptsGzip(header)).toBe(accepts);
    expect(acceptsGzip(header)).toBe(accepts);
  });

  it('stays right past the number of headers it remembers', () => {
    for (let i = 0; i < 200; i += 1) expect(acceptsGzip(`gzip;q=0, x-${i}`)).toBe(false);
    for (let i = 0; i < 200; i += 1) expect(acceptsGzip(`gzip, x-${i}`)).toBe(true);
  });
});
