import { describe, expect, it } from 'vitest';
import { PET_SPECIES, canonicalSpecies, hasBreedList } from './pet-species.ts';

describe('PET_SPECIES', () => {
  it('lists the options of docs/product-rules.md#limits in order', () => {
    expect(PET_SPECIES).toEqual(['Dog', 'Cat', 'Other']);
  });
});

describe('canonicalSpecies', () => {
  it.each([
    ['Dog', 'Dog'],
    ['dog', 'Dog'],
    ['DOG', 'Dog'],
    ['  Dog ', 'Dog'],
    ['Cão', 'Dog'],
    ['cão', 'Dog'],
    ['CÃO', 'Dog'],
    ['Cao', 'Dog'],
    ['Ca\u0303o', 'Dog'], // decomposed ã, as some keyboards and URLs send it
    ['Cachorro', 'Dog'],
    ['cachorro', 'Dog'],
    ['Cat', 'Cat'],
    ['cat', 'Cat'],
    ['Gato', 'Cat'],
    ['GATO', 'Cat'],
  ] as const)('maps %j to %s', (value, expected) => {
    expect(canonicalSpecies(value)).toBe(expected);
    expect(hasBreedList(value)).toBe(true);
  });

  it.each([['Other'], ['other'], ['Outro'], [''], ['   '], ['Rabbit'], ['Coelho'], ['Dogs'], ['Hot dog'], ['Gata x']])(
    'has no breed list for %j',
    (value) => {
      expect(canonicalSpecies(value)).toBeNull();
      expect(hasBreedList(value)).toBe(false);
    },
  );

  it.each([[null], [undefined], [42], [{}], [['Dog']]])('answers null for the non-string %j', (value) => {
    expect(canonicalSpecies(value)).toBeNull();
    expect(hasBreedList(value)).toBe(false);
  });
});
