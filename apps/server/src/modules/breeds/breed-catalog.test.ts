import { describe, expect, it } from 'vitest';
import { LOCALES } from '@vetcall/shared/locales';
import {
  BREED_CATALOG,
  BREED_ID_RANGES,
  CAT_BREEDS,
  DOG_BREEDS,
  breedName,
  findBreed,
  listBreeds,
} from './breed-catalog.ts';

const SPECIES = ['Dog', 'Cat'] as const;

describe('breed catalog data', () => {
  it('holds at least 60 dog and 30 cat breeds', () => {
    expect(DOG_BREEDS.length).toBeGreaterThanOrEqual(60);
    expect(CAT_BREEDS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(SPECIES)('gives every %s breed a unique integer id inside its species range', (species) => {
    const { min, max } = BREED_ID_RANGES[species];
    const ids = BREED_CATALOG[species].map((entry) => entry.breed_id);
    for (const id of ids) {
      expect(Number.isInteger(id)).toBe(true);
      expect(id).toBeGreaterThanOrEqual(min);
      expect(id).toBeLessThanOrEqual(max);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('never shares an id between species', () => {
    const all = [...DOG_BREEDS, ...CAT_BREEDS].map((entry) => entry.breed_id);
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps the ids stored on pets stable', () => {
    // Pets store these ids: a change here means stored pets show the wrong breed.
    const pinned = [
      ['Dog', 1001, 'Mixed breed'],
      ['Dog', 1002, 'Estrela Mountain Dog'],
      ['Dog', 1003, 'Portuguese Water Dog'],
      ['Dog', 1013, 'Fila Brasileiro'],
      ['Dog', 1019, 'Labrador Retriever'],
      ['Dog', 1021, 'German Shepherd'],
      ['Dog', 1023, 'French Bulldog'],
      ['Dog', 1094, 'American Cocker Spaniel'],
      ['Cat', 2001, 'Mixed breed'],
      ['Cat', 2002, 'European Shorthair'],
      ['Cat', 2003, 'Brazilian Shorthair'],
      ['Cat', 2004, 'Persian'],
      ['Cat', 2042, 'Singapura'],
    ] as const;
    for (const [species, id, en] of pinned) expect(findBreed(species, id)?.names.en, `${id}`).toBe(en);
  });

  it('numbers the ids densely from the start of each range (append only)', () => {
    for (const species of SPECIES) {
      const ids = BREED_CATALOG[species].map((entry) => entry.breed_id);
      const { min } = BREED_ID_RANGES[species];
      expect(ids).toEqual(ids.map((_, index) => min + index));
    }
  });

  it.each(SPECIES)('gives every %s breed a trimmed, non-empty name in en, pt and pt-BR', (species) => {
    for (const entry of BREED_CATALOG[species]) {
      expect(Object.keys(entry.names).sort()).toEqual([...LOCALES].sort());
      for (const locale of LOCALES) {
        const name = entry.names[locale];
        expect(name.length, `${entry.breed_id} ${locale}`).toBeGreaterThanOrEqual(2);
        expect(name.trim(), `${entry.breed_id} ${locale}`).toBe(name);
        expect(name, `${entry.breed_id} ${locale}`).not.toMatch(/\s{2}/);
      }
    }
  });

  it.each(SPECIES)('has no duplicate %s breed name within a locale (ignoring case and accents)', (species) => {
    for (const locale of LOCALES) {
      const collator = new Intl.Collator(locale, { sensitivity: 'base' });
      const names = BREED_CATALOG[species].map((entry) => entry.names[locale]);
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          expect(collator.compare(names[i]!, names[j]!), `${locale}: ${names[i]} / ${names[j]}`).not.toBe(0);
        }
      }
    }
  });

  it('includes the breeds common in Portugal and Brazil, with their local names', () => {
    const names = (species: 'Dog' | 'Cat', locale: 'en' | 'pt' | 'pt-BR') =>
      BREED_CATALOG[species].map((entry) => entry.names[locale]);
    expect(names('Dog', 'pt')).toEqual(
      expect.arrayContaining([
        'Cão da Serra da Estrela',
        'Cão de Água Português',
        'Podengo Português',
        'Rafeiro do Alentejo',
        'Perdigueiro Português',
        'Cão de Castro Laboreiro',
        'Barbado da Terceira',
        'Fila Brasileiro',
        'Terrier Brasileiro',
        'Rafeiro / Sem raça definida',
        'Pastor Alemão',
        'Bulldog Francês',
        'Caniche',
      ]),
    );
    expect(names('Dog', 'pt-BR')).toEqual(
      expect.arrayContaining(['Sem raça definida (SRD)', 'Buldogue Francês', 'Poodle', 'Lulu da Pomerânia']),
    );
    expect(names('Dog', 'en')).toEqual(
      expect.arrayContaining(['Mixed breed', 'Labrador Retriever', 'German Shepherd', 'Yorkshire Terrier', 'Shih Tzu']),
    );
    expect(names('Cat', 'pt')).toEqual(
      expect.arrayContaining([
        'Persa',
        'Siamês',
        'Maine Coon',
        'Britânico de Pelo Curto',
        'Sphynx',
        'Ragdoll',
        'Bengal',
        'Europeu Comum',
        'Sem raça definida',
        'Pelo Curto Brasileiro',
      ]),
    );
    expect(names('Cat', 'pt-BR')).toEqual(expect.arrayContaining(['Sem raça definida (SRD)', 'Pelo Curto Brasileiro']));
  });
});

describe('listBreeds', () => {
  it.each(SPECIES.flatMap((species) => LOCALES.map((locale) => [species, locale] as const)))(
    'sorts the %s list by the %s name with that locale’s collation',
    (species, locale) => {
      const list = listBreeds(species, locale);
      expect(list).toHaveLength(BREED_CATALOG[species].length);
      const collator = new Intl.Collator(locale);
      const names = list.map((entry) => entry.name);
      expect(names).toEqual([...names].sort(collator.compare));
      for (const entry of list) expect(entry.name).toBe(findBreed(species, entry.breed_id)?.names[locale]);
    },
  );

  it('places accented initials with their base letter, not after Z', () => {
    const names = listBreeds('Dog', 'pt').map((entry) => entry.name);
    const epagneul = names.indexOf('Épagneul Bretão');
    expect(epagneul).toBeGreaterThan(names.indexOf('Dogue de Bordéus'));
    expect(epagneul).toBeLessThan(names.indexOf('Fila Brasileiro'));
  });

  it('accepts the species in any accepted spelling and answers [] for the rest', () => {
    expect(listBreeds('cachorro', 'pt-BR')).toEqual(listBreeds('Dog', 'pt-BR'));
    expect(listBreeds('Gato', 'pt')).toEqual(listBreeds('Cat', 'pt'));
    expect(listBreeds('Other', 'en')).toEqual([]);
    expect(listBreeds('', 'en')).toEqual([]);
    expect(listBreeds('Iguana', 'pt')).toEqual([]);
  });
});

describe('findBreed and breedName', () => {
  it('finds a stored breed and names it in the viewer’s language', () => {
    expect(findBreed('Dog', 1021)).toEqual({
      breed_id: 1021,
      names: { en: 'German Shepherd', pt: 'Pastor Alemão', 'pt-BR': 'Pastor Alemão' },
    });
    expect(breedName('Dog', 1023, 'en')).toBe('French Bulldog');
    expect(breedName('Cão', 1023, 'pt')).toBe('Bulldog Francês');
    expect(breedName('cachorro', 1023, 'pt-BR')).toBe('Buldogue Francês');
    expect(breedName('Dog', 1001, 'pt-BR')).toBe('Sem raça definida (SRD)');
    expect(breedName('Cat', 2002, 'pt')).toBe('Europeu Comum');
    expect(breedName('gato', 2004, 'en')).toBe('Persian');
  });

  it('finds nothing for an id of another species, an unknown id or a species without a list', () => {
    expect(findBreed('Cat', 1021)).toBeUndefined();
    expect(findBreed('Dog', 2004)).toBeUndefined();
    expect(findBreed('Dog', 1999)).toBeUndefined();
    expect(findBreed('Dog', 0)).toBeUndefined();
    expect(findBreed('Dog', null)).toBeUndefined();
    expect(findBreed('Dog', undefined)).toBeUndefined();
    expect(findBreed('Other', 1021)).toBeUndefined();
    expect(findBreed('Hamster', 1021)).toBeUndefined();
    expect(breedName('Other', 1021, 'en')).toBeUndefined();
  });
});
