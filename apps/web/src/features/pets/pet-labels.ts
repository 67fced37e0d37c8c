import type { TFunction } from 'i18next';
import { canonicalSpecies } from '@vetcall/shared/pet-species';

/** Dog, Cat and Other in the viewer's language; free-text species as typed. */
export function speciesLabel(t: TFunction, species: string): string {
  const canonical = canonicalSpecies(species) ?? (species === 'Other' ? 'Other' : null);
  return canonical ? t(`pets.species_${canonical}`) : species;
}

/** docs/product-rules.md#entities: fertile status is worded by gender (intact / neutered or spayed). */
export function fertileStatusLabel(t: TFunction, status: 'intact' | 'neutered', gender: 'F' | 'M'): string {
  return t(`pets.fertile_${status}_${gender}`);
}

export function ageLabel(t: TFunction, age: { years: number; months: number }): string {
  if (age.years === 0) return t('pets.months', { count: age.months });
  if (age.months === 0) return t('pets.years', { count: age.years });
  return t('pets.years_and_months', {
    years: t('pets.years', { count: age.years }),
    months: t('pets.months', { count: age.months }),
  });
}
