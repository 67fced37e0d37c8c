import { z } from 'zod';
import type { Locale } from '../locales.ts';
import { idParam, requiredText } from './fields.ts';

/** Highest price accepted, in EUR: a guard against typing errors, not a business rule. */
export const PRICE_MAX = 100_000;
export const DESIGNATION_MIN = 2;
export const DESIGNATION_MAX = 120;

/**
 * A price in EUR, at least 0, with at most two decimals (docs/product-rules.md#validation: step 0.01), tolerant of
 * binary floating point.
 */
export const priceField = z
  .number({ error: 'required' })
  .min(0, { error: 'too_small' })
  .max(PRICE_MAX, { error: 'too_big' })
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, { error: 'invalid_format' });

/** Prices are stored as integer cents; EUR ↔ cents without floating-point residue (19.99 → 1999). */
export const priceToCents = (price: number): number => Math.round(price * 100);
export const centsToPrice = (cents: number): number => cents / 100;

const designationField = requiredText({ min: DESIGNATION_MIN, max: DESIGNATION_MAX });

/** The designation in every interface language (docs/product-rules.md#product locales), each required. */
export const productDesignationsSchema = z.object({
  en: designationField,
  pt: designationField,
  'pt-BR': designationField,
} satisfies Record<Locale, typeof designationField>);
export type ProductDesignations = z.infer<typeof productDesignationsSchema>;

/** POST /api/products. */
export const productInputSchema = z.object({
  designation: productDesignationsSchema,
  price: priceField,
});
export type ProductInput = z.input<typeof productInputSchema>;

/** PUT /api/products/price/{product_id}. */
export const productPriceInputSchema = z.object({ price: priceField });
export type ProductPriceInput = z.input<typeof productPriceInputSchema>;

/**
 * docs/product-rules.md#entities Product, with the designation in the requested language; price in EUR and in cents.
 */
export const productSchema = z.object({
  product_id: z.number().int(),
  designation: z.string(),
  price: z.number(),
  price_cents: z.number().int(),
});
export type Product = z.infer<typeof productSchema>;

export const productIdParamsSchema = z.object({ product_id: idParam });

export const productDeletionSchema = z.object({ product_id: z.number().int() });
