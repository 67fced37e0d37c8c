import { z } from 'zod';
import { localeField } from './fields.ts';

/**
 * One entry of a species' breed list (docs/product-rules.md#entities): a stable id, stored on the pet, and the
 * localized name.
 */
export const breedSchema = z.object({
  breed_id: z.number().int().positive(),
  name: z.string(),
});
export type Breed = z.infer<typeof breedSchema>;

/** GET /api/pets/breeds/{species}/{language}: sorted by name in that language; empty for Other or free text. */
export const breedListSchema = z.array(breedSchema);
export type BreedList = z.infer<typeof breedListSchema>;

/**
 * Species is free: Dog, Cat, their Portuguese words, Other or any free text (which answer an empty list);
 * the language is en, pt or pt-BR (also spelled pt_BR or pt-br).
 */
export const breedListParamsSchema = z.object({
  species: z.string().max(100),
  language: localeField,
});
