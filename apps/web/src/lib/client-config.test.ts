import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clientConfigSchema } from '@vetcall/shared/schemas/client-config';
import { TEST_CLIENT_CONFIG } from '../test/client-config';
import { parseClientConfig } from './client-config';

/** What the shared schema answers: the parsed config, or 'invalid'. */
function schemaAnswer(body: unknown) {
  const result = clientConfigSchema.safeParse(body);
  return result.success ? result.data : 'invalid';
}

function handAnswer(body: unknown) {
  try {
    return parseClientConfig(body);
  } catch {
    return 'invalid';
  }
}

describe('parseClientConfig', () => {
  it('keeps a valid config and strips the fields the schema does not know', () => {
    expect(parseClientConfig({ ...TEST_CLIENT_CONFIG, extra: 1 })).toEqual(TEST_CLIENT_CONFIG);
  });

  it.each([
    ['a missing field', { ...TEST_CLIENT_CONFIG, website_url: undefined }],
    ['an unknown environment', { ...TEST_CLIENT_CONFIG, environment: 'staging' }],
    ['an unknown video provider', { ...TEST_CLIENT_CONFIG, video_provider: 'zoom' }],
    ['an unknown payment provider', { ...TEST_CLIENT_CONFIG, payment_provider: 'paypal' }],
    ['a string for a flag', { ...TEST_CLIENT_CONFIG, insurance_enabled: 'true' }],
    ['null where a string is required', { ...TEST_CLIENT_CONFIG, clinic_time_zone: null }],
    ['an inherited enum name', { ...TEST_CLIENT_CONFIG, environment: 'toString' }],
    ['an array', [TEST_CLIENT_CONFIG]],
    ['null', null],
  ])('refuses %s, as the shared schema does', (_, body) => {
    expect(() => parseClientConfig(body)).toThrow();
    expect(schemaAnswer(body)).toBe('invalid');
  });

  it('answers as the shared schema does for any body', () => {
    const value = fc.oneof(
      fc.constantFrom('development', 'production', 'test', 'builtin', 'stripe', 'jitsi', 'x', '', 'toString'),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.integer(),
    );
    const field = (name: keyof typeof TEST_CLIENT_CONFIG) => fc.oneof(fc.constant(TEST_CLIENT_CONFIG[name]), value);
    const body = fc.record(
      Object.fromEntries(
        (Object.keys(TEST_CLIENT_CONFIG) as Array<keyof typeof TEST_CLIENT_CONFIG>).map((name) => [name, field(name)]),
      ),
    );
    fc.assert(
      fc.property(body, (candidate) => {
        expect(handAnswer(candidate)).toEqual(schemaAnswer(candidate));
      }),
      { numRuns: 500 },
    );
  });
});
