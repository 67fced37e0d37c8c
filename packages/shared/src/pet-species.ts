/**
 * Species options of docs/product-rules.md#entities/#limits; a pet's species may also be free text (at least 2
 * characters).
 */
export const PET_SPECIES = ['Dog', 'Cat', 'Other'] as const;
export type PetSpecies = (typeof PET_SPECIES)[number];

/**
 * The species that have a curated breed list (docs/product-rules.md#entities: breed from a per-species list, or free
 * text).
 */
export type BreedListSpecies = 'Dog' | 'Cat';

/**
 * Lower-cased, accent-free spellings that name a species with a breed list: the canonical English
 * names and the Portuguese words used in Portugal (`Cão`) and Brazil (`Cachorro`), and `Gato` for both.
 */
const SPECIES_ALIASES: Readonly<Record<string, BreedListSpecies>> = {
  dog: 'Dog',
  cao: 'Dog',
  cachorro: 'Dog',
  cat: 'Cat',
  gato: 'Cat',
};

/** `' CÃO '` → `'cao'`: trimmed, lower-cased and without diacritics, so `Cão`, `cão` and `Cao` compare equal. */
function foldSpecies(value: string): string {
  return value.trim().normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Maps a stored or typed species to `'Dog'` or `'Cat'` when it names one (`dog`, `Dog`, `Cão`, `Cachorro`,
 * `gato`, …); `null` for `Other`, an empty value or any free-text species, which have no breed list.
 */
export function canonicalSpecies(value: unknown): BreedListSpecies | null {
  if (typeof value !== 'string') return null;
  return SPECIES_ALIASES[foldSpecies(value)] ?? null;
}

/** True only for Dog and Cat (in any accepted spelling); the breed is then picked from the list. */
export function hasBreedList(species: unknown): boolean {
  return canonicalSpecies(species) !== null;
}
