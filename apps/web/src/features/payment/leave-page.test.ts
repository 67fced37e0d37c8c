import { describe, expect, it } from 'vitest';
import { sameOriginTarget } from './leave-page';

describe('sameOriginTarget', () => {
  it('keeps paths and addresses on our own host', () => {
    expect(sameOriginTarget('/requestsent/pay_1?x=1', '/fallback')).toBe('/requestsent/pay_1?x=1');
    expect(sameOriginTarget(`${window.location.origin}/customer`, '/fallback')).toBe('/customer');
  });

  it('refuses other hosts, protocol-relative addresses and scripts', () => {
    expect(sameOriginTarget('https://evil.test/pay', '/fallback')).toBe('/fallback');
    expect(sameOriginTarget('//evil.test/pay', '/fallback')).toBe('/fallback');
    expect(sameOriginTarget('javascript:alert(1)', '/fallback')).toBe('/fallback');
  });
});
