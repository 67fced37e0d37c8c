import type { Locale } from '@vetcall/shared/locales';
import { type BreedListSpecies, canonicalSpecies } from '@vetcall/shared/pet-species';
import type { Breed } from '@vetcall/shared/schemas/breeds';

/** A curated breed: its stable id and its name as used in English, in Portugal (pt) and in Brazil (pt-BR). */
export interface CatalogBreed {
  readonly breed_id: number;
  readonly names: Readonly<Record<Locale, string>>;
}

function breed(breed_id: number, en: string, pt: string, ptBR: string): CatalogBreed {
  return { breed_id, names: { en, pt, 'pt-BR': ptBR } };
}

/*
 * The ids are stored on pets (pets.breed_id), so they are STABLE: never renumber, reuse or remove an id.
 * Append new breeds at the end with the next free id (dogs 1001…1999, cats 2001…2999); to retire a
 * breed, keep its entry so stored pets still show a name. Order here is irrelevant: every answer is
 * sorted by the localized name.
 */

export const DOG_BREEDS: readonly CatalogBreed[] = [
  breed(1001, 'Mixed breed', 'Rafeiro / Sem raça definida', 'Sem raça definida (SRD)'),
  // Portuguese breeds
  breed(1002, 'Estrela Mountain Dog', 'Cão da Serra da Estrela', 'Cão da Serra da Estrela'),
  breed(1003, 'Portuguese Water Dog', 'Cão de Água Português', "Cão d'Água Português"),
  breed(1004, 'Portuguese Podengo', 'Podengo Português', 'Podengo Português'),
  breed(1005, 'Rafeiro do Alentejo', 'Rafeiro do Alentejo', 'Rafeiro do Alentejo'),
  breed(1006, 'Portuguese Pointer', 'Perdigueiro Português', 'Perdigueiro Português'),
  breed(1007, 'Castro Laboreiro Dog', 'Cão de Castro Laboreiro', 'Cão de Castro Laboreiro'),
  breed(1008, 'Barbado da Terceira', 'Barbado da Terceira', 'Barbado da Terceira'),
  breed(1009, 'Portuguese Sheepdog', 'Cão da Serra de Aires', 'Cão da Serra de Aires'),
  breed(1010, 'Transmontano Mastiff', 'Cão de Gado Transmontano', 'Cão de Gado Transmontano'),
  breed(1011, 'Saint Miguel Cattle Dog', 'Cão Fila de São Miguel', 'Cão Fila de São Miguel'),
  breed(1012, 'Algarve Barrocal Dog', 'Cão do Barrocal Algarvio', 'Cão do Barrocal Algarvio'),
  // Brazilian breeds
  breed(1013, 'Fila Brasileiro', 'Fila Brasileiro', 'Fila Brasileiro'),
  breed(1014, 'Brazilian Terrier', 'Terrier Brasileiro', 'Terrier Brasileiro (Fox Paulistinha)'),
  breed(1015, 'Brazilian Dogue', 'Dogue Brasileiro', 'Dogue Brasileiro'),
  breed(1016, 'Campeiro Bulldog', 'Bulldog Campeiro', 'Buldogue Campeiro'),
  breed(1017, 'Brazilian Tracker', 'Rastreador Brasileiro', 'Rastreador Brasileiro'),
  breed(1018, 'Gaucho Sheepdog', 'Ovelheiro Gaúcho', 'Ovelheiro Gaúcho'),
  // International breeds
  breed(1019, 'Labrador Retriever', 'Labrador Retriever', 'Labrador Retriever'),
  breed(1020, 'Golden Retriever', 'Golden Retriever', 'Golden Retriever'),
  breed(1021, 'German Shepherd', 'Pastor Alemão', 'Pastor Alemão'),
  breed(1022, 'Yorkshire Terrier', 'Yorkshire Terrier', 'Yorkshire Terrier'),
  breed(1023, 'French Bulldog', 'Bulldog Francês', 'Buldogue Francês'),
  breed(1024, 'English Bulldog', 'Bulldog Inglês', 'Buldogue Inglês'),
  breed(1025, 'Shih Tzu', 'Shih Tzu', 'Shih Tzu'),
  breed(1026, 'Chihuahua', 'Chihuahua', 'Chihuahua'),
  breed(1027, 'Pug', 'Pug', 'Pug'),
  breed(1028, 'Beagle', 'Beagle', 'Beagle'),
  breed(1029, 'Border Collie', 'Border Collie', 'Border Collie'),
  breed(1030, 'Poodle', 'Caniche', 'Poodle'),
  breed(1031, 'Dachshund', 'Teckel (Dachshund)', 'Dachshund (Salsicha)'),
  breed(1032, 'Boxer', 'Boxer', 'Boxer'),
  breed(1033, 'Rottweiler', 'Rottweiler', 'Rottweiler'),
  breed(1034, 'Dobermann', 'Dobermann', 'Dobermann'),
  breed(1035, 'Siberian Husky', 'Husky Siberiano', 'Husky Siberiano'),
  breed(1036, 'Alaskan Malamute', 'Malamute do Alasca', 'Malamute do Alasca'),
  breed(1037, 'Pomeranian', 'Spitz Alemão Anão (Pomerânia)', 'Lulu da Pomerânia'),
  breed(1038, 'Maltese', 'Bichon Maltês', 'Maltês'),
  breed(1039, 'Bichon Frisé', 'Bichon Frisé', 'Bichon Frisé'),
  breed(1040, 'Cavalier King Charles Spaniel', 'Cavalier King Charles Spaniel', 'Cavalier King Charles Spaniel'),
  breed(1041, 'English Cocker Spaniel', 'Cocker Spaniel Inglês', 'Cocker Spaniel Inglês'),
  breed(1042, 'Jack Russell Terrier', 'Jack Russell Terrier', 'Jack Russell Terrier'),
  breed(1043, 'West Highland White Terrier', 'West Highland White Terrier', 'West Highland White Terrier'),
  breed(1044, 'Miniature Schnauzer', 'Schnauzer Miniatura', 'Schnauzer Miniatura'),
  breed(1045, 'Lhasa Apso', 'Lhasa Apso', 'Lhasa Apso'),
  breed(1046, 'Pekingese', 'Pequinês', 'Pequinês'),
  breed(1047, 'Miniature Pinscher', 'Pinscher Miniatura', 'Pinscher Miniatura'),
  breed(1048, 'Shar Pei', 'Shar-Pei', 'Shar-Pei'),
  breed(1049, 'Chow Chow', 'Chow Chow', 'Chow Chow'),
  breed(1050, 'Akita', 'Akita Inu', 'Akita Inu'),
  breed(1051, 'Shiba Inu', 'Shiba Inu', 'Shiba Inu'),
  breed(1052, 'Bernese Mountain Dog', 'Boieiro de Berna', 'Boiadeiro Bernês'),
  breed(1053, 'Saint Bernard', 'São Bernardo', 'São Bernardo'),
  breed(1054, 'Great Dane', 'Dogue Alemão', 'Dogue Alemão'),
  breed(1055, 'Cane Corso', 'Cane Corso', 'Cane Corso'),
  breed(1056, 'Bull Terrier', 'Bull Terrier', 'Bull Terrier'),
  breed(1057, 'American Staffordshire Terrier', 'American Staffordshire Terrier', 'American Staffordshire Terrier'),
  breed(1058, 'American Pit Bull Terrier', 'Pit Bull Terrier Americano', 'Pit Bull'),
  breed(1059, 'Staffordshire Bull Terrier', 'Staffordshire Bull Terrier', 'Staffordshire Bull Terrier'),
  breed(1060, 'Belgian Malinois', 'Pastor Belga Malinois', 'Pastor Belga Malinois'),
  breed(1061, 'Australian Shepherd', 'Pastor Australiano', 'Pastor Australiano'),
  breed(1062, 'Shetland Sheepdog', 'Pastor de Shetland', 'Pastor de Shetland'),
  breed(1063, 'Rough Collie', 'Collie de Pelo Comprido', 'Collie de Pelo Longo'),
  breed(1064, 'Weimaraner', 'Braco de Weimar', 'Weimaraner'),
  breed(1065, 'German Shorthaired Pointer', 'Braco Alemão de Pelo Curto', 'Braco Alemão de Pelo Curto'),
  breed(1066, 'English Pointer', 'Pointer Inglês', 'Pointer Inglês'),
  breed(1067, 'Dalmatian', 'Dálmata', 'Dálmata'),
  breed(1068, 'Basset Hound', 'Basset Hound', 'Basset Hound'),
  breed(1069, 'Bloodhound', 'Cão de Santo Humberto (Bloodhound)', 'Bloodhound'),
  breed(1070, 'Whippet', 'Whippet', 'Whippet'),
  breed(1071, 'Greyhound', 'Galgo Inglês', 'Greyhound'),
  breed(1072, 'Spanish Greyhound', 'Galgo Espanhol', 'Galgo Espanhol'),
  breed(1073, 'Newfoundland', 'Terra-Nova', 'Terra-Nova'),
  breed(1074, 'Leonberger', 'Leonberger', 'Leonberger'),
  breed(1075, 'Samoyed', 'Samoiedo', 'Samoieda'),
  breed(1076, 'Boston Terrier', 'Boston Terrier', 'Boston Terrier'),
  breed(1077, 'Papillon', 'Papillon', 'Papillon'),
  breed(1078, 'Spanish Water Dog', 'Cão de Água Espanhol', "Cão d'Água Espanhol"),
  breed(1079, 'Brittany', 'Épagneul Bretão', 'Épagneul Bretão'),
  breed(1080, 'English Springer Spaniel', 'Springer Spaniel Inglês', 'Springer Spaniel Inglês'),
  breed(1081, 'Dogo Argentino', 'Dogo Argentino', 'Dogo Argentino'),
  breed(1082, 'Bullmastiff', 'Bullmastiff', 'Bullmastiff'),
  breed(1083, 'Neapolitan Mastiff', 'Mastim Napolitano', 'Mastim Napolitano'),
  breed(1084, 'Presa Canario', 'Dogo Canário', 'Presa Canário'),
  breed(1085, 'Basenji', 'Basenji', 'Basenji'),
  breed(1086, 'White Swiss Shepherd', 'Pastor Branco Suíço', 'Pastor Branco Suíço'),
  breed(1087, 'Pembroke Welsh Corgi', 'Welsh Corgi Pembroke', 'Welsh Corgi Pembroke'),
  breed(1088, 'Havanese', 'Bichon Havanês', 'Havanês'),
  breed(1089, 'Fox Terrier', 'Fox Terrier', 'Fox Terrier'),
  breed(1090, 'Irish Setter', 'Setter Irlandês', 'Setter Irlandês'),
  breed(1091, 'Dogue de Bordeaux', 'Dogue de Bordéus', 'Dogue de Bordeaux'),
  breed(1092, 'American Bulldog', 'Bulldog Americano', 'Buldogue Americano'),
  breed(1093, 'American Bully', 'American Bully', 'American Bully'),
  breed(1094, 'American Cocker Spaniel', 'Cocker Spaniel Americano', 'Cocker Spaniel Americano'),
];

export const CAT_BREEDS: readonly CatalogBreed[] = [
  breed(2001, 'Mixed breed', 'Sem raça definida', 'Sem raça definida (SRD)'),
  breed(2002, 'European Shorthair', 'Europeu Comum', 'Europeu de Pelo Curto'),
  breed(2003, 'Brazilian Shorthair', 'Pelo Curto Brasileiro', 'Pelo Curto Brasileiro'),
  breed(2004, 'Persian', 'Persa', 'Persa'),
  breed(2005, 'Siamese', 'Siamês', 'Siamês'),
  breed(2006, 'Maine Coon', 'Maine Coon', 'Maine Coon'),
  breed(2007, 'British Shorthair', 'Britânico de Pelo Curto', 'Britânico de Pelo Curto'),
  breed(2008, 'British Longhair', 'Britânico de Pelo Comprido', 'Britânico de Pelo Longo'),
  breed(2009, 'Sphynx', 'Sphynx', 'Sphynx'),
  breed(2010, 'Ragdoll', 'Ragdoll', 'Ragdoll'),
  breed(2011, 'Bengal', 'Bengal', 'Bengal'),
  breed(2012, 'Scottish Fold', 'Scottish Fold', 'Scottish Fold'),
  breed(2013, 'Exotic Shorthair', 'Exótico de Pelo Curto', 'Exótico de Pelo Curto'),
  breed(2014, 'Norwegian Forest Cat', 'Bosques da Noruega', 'Norueguês da Floresta'),
  breed(2015, 'Siberian', 'Siberiano', 'Siberiano'),
  breed(2016, 'Russian Blue', 'Azul Russo', 'Azul Russo'),
  breed(2017, 'Abyssinian', 'Abissínio', 'Abissínio'),
  breed(2018, 'Birman', 'Sagrado da Birmânia', 'Sagrado da Birmânia'),
  breed(2019, 'Burmese', 'Burmês', 'Burmês'),
  breed(2020, 'Turkish Angora', 'Angorá Turco', 'Angorá Turco'),
  breed(2021, 'Turkish Van', 'Van Turco', 'Van Turco'),
  breed(2022, 'Devon Rex', 'Devon Rex', 'Devon Rex'),
  breed(2023, 'Cornish Rex', 'Cornish Rex', 'Cornish Rex'),
  breed(2024, 'Selkirk Rex', 'Selkirk Rex', 'Selkirk Rex'),
  breed(2025, 'Oriental Shorthair', 'Oriental de Pelo Curto', 'Oriental de Pelo Curto'),
  breed(2026, 'Himalayan', 'Himalaia', 'Himalaia'),
  breed(2027, 'Chartreux', 'Chartreux', 'Chartreux'),
  breed(2028, 'Manx', 'Manx', 'Manx'),
  breed(2029, 'American Shorthair', 'Americano de Pelo Curto', 'Americano de Pelo Curto'),
  breed(2030, 'American Curl', 'American Curl', 'American Curl'),
  breed(2031, 'Egyptian Mau', 'Mau Egípcio', 'Mau Egípcio'),
  breed(2032, 'Savannah', 'Savannah', 'Savannah'),
  breed(2033, 'Somali', 'Somali', 'Somali'),
  breed(2034, 'Tonkinese', 'Tonquinês', 'Tonquinês'),
  breed(2035, 'Balinese', 'Balinês', 'Balinês'),
  breed(2036, 'Ocicat', 'Ocicat', 'Ocicat'),
  breed(2037, 'Snowshoe', 'Snowshoe', 'Snowshoe'),
  breed(2038, 'Bombay', 'Bombay', 'Bombay'),
  breed(2039, 'Japanese Bobtail', 'Bobtail Japonês', 'Bobtail Japonês'),
  breed(2040, 'Korat', 'Korat', 'Korat'),
  breed(2041, 'Munchkin', 'Munchkin', 'Munchkin'),
  breed(2042, 'Singapura', 'Singapura', 'Singapura'),
];

export const BREED_CATALOG: Readonly<Record<BreedListSpecies, readonly CatalogBreed[]>> = {
  Dog: DOG_BREEDS,
  Cat: CAT_BREEDS,
};

/** The id ranges of each species, for checks and for telling a stored id's species apart. */
export const BREED_ID_RANGES: Readonly<Record<BreedListSpecies, { readonly min: number; readonly max: number }>> = {
  Dog: { min: 1001, max: 1999 },
  Cat: { min: 2001, max: 2999 },
};

const collators = new Map<Locale, Intl.Collator>();
function collator(locale: Locale): Intl.Collator {
  let found = collators.get(locale);
  if (!found) {
    found = new Intl.Collator(locale);
    collators.set(locale, found);
  }
  return found;
}

const sortedLists = new Map<string, readonly Breed[]>();

/**
 * The breed list of a species in a locale, `[{ breed_id, name }]` sorted by the localized name with that
 * locale's collation. Species is matched loosely (`dog`, `Cão`, `Cachorro`, `Gato`, …); Other, an empty
 * value or any free-text species has no list and answers `[]` (the breed is then free text).
 */
export function listBreeds(species: unknown, locale: Locale): readonly Breed[] {
  const canonical = canonicalSpecies(species);
  if (!canonical) return [];
  const key = `${canonical}/${locale}`;
  let list = sortedLists.get(key);
  if (!list) {
    const compare = collator(locale).compare;
    list = Object.freeze(
      BREED_CATALOG[canonical]
        .map((entry) => Object.freeze({ breed_id: entry.breed_id, name: entry.names[locale] }))
        .sort((a, b) => compare(a.name, b.name)),
    );
    sortedLists.set(key, list);
  }
  return list;
}

const byId = new Map<number, CatalogBreed>(
  Object.values(BREED_CATALOG)
    .flat()
    .map((entry) => [entry.breed_id, entry]),
);

/** The catalog entry of a stored breed id, or undefined when the species has no list or the id is not its. */
export function findBreed(species: unknown, breedId: number | null | undefined): CatalogBreed | undefined {
  const canonical = canonicalSpecies(species);
  if (!canonical || breedId == null) return undefined;
  const range = BREED_ID_RANGES[canonical];
  if (breedId < range.min || breedId > range.max) return undefined;
  return byId.get(breedId);
}

/** A stored breed's name in the viewer's language, or undefined (the pets module then shows the free text). */
export function breedName(species: unknown, breedId: number | null | undefined, locale: Locale): string | undefined {
  return findBreed(species, breedId)?.names[locale];
}
