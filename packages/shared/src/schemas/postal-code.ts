import { z } from 'zod';

/**
 * Countries whose postal codes can be looked up (docs/product-rules.md#validation Postal code). Portugal is the active
 * country.
 */
export const POSTAL_COUNTRIES = ['PT', 'US', 'BR'] as const;
export type PostalCountry = (typeof POSTAL_COUNTRIES)[number];

/** The accepted form of each country's code, after normalizePostalCode. */
export const postalCodePatterns: Record<PostalCountry, RegExp> = {
  PT: /^\d{4}-\d{3}$/,
  US: /^\d{5}$/,
  BR: /^\d{5}-\d{3}$/,
};

export function isPostalCountry(value: unknown): value is PostalCountry {
  return typeof value === 'string' && (POSTAL_COUNTRIES as readonly string[]).includes(value);
}

export function isValidPostalCode(country: string, code: string): boolean {
  return isPostalCountry(country) && postalCodePatterns[country].test(code);
}

/**
 * Trims the code and puts a code typed without its dash in the usual form: Portugal 7 digits →
 * NNNN-NNN, Brazil 8 digits → NNNNN-NNN. Anything else is returned trimmed, for isValidPostalCode to judge.
 */
export function normalizePostalCode(country: string, code: string): string {
  const trimmed = code.trim();
  if (country === 'PT' && /^\d{7}$/.test(trimmed)) return `${trimmed.slice(0, 4)}-${trimmed.slice(4)}`;
  if (country === 'BR' && /^\d{8}$/.test(trimmed)) return `${trimmed.slice(0, 5)}-${trimmed.slice(5)}`;
  return trimmed;
}

/**
 * GET /api/postalcodes/{country}/{code}. The country is case-insensitive. A code that does not fit its
 * country (or any code under an unknown country) fails as `code: invalid_format`.
 */
export const postalCodeParamsSchema = z
  .object({
    country: z.preprocess(
      (value) => (typeof value === 'string' ? value.trim().toUpperCase() : value),
      z.enum(POSTAL_COUNTRIES, { error: 'invalid_value' }),
    ),
    code: z.string({ error: 'invalid_format' }).max(20, { error: 'invalid_format' }),
  })
  .refine((params) => isValidPostalCode(params.country, normalizePostalCode(params.country, params.code)), {
    path: ['code'],
    error: 'invalid_format',
    // Also runs when the country itself failed, so an unknown country flags the code too.
    when: (payload) => typeof (payload.value as { code?: unknown } | undefined)?.code === 'string',
  });
export type PostalCodeParams = z.infer<typeof postalCodeParamsSchema>;

/** A found code. `address` is '' when the provider knows no street for it (always so in the US). */
export const postalCodeLookupSchema = z.object({
  country: z.enum(POSTAL_COUNTRIES),
  postal_code: z.string(),
  city: z.string(),
  state: z.string(),
  address: z.string(),
});
export type PostalCodeLookupResponse = z.infer<typeof postalCodeLookupSchema>;
