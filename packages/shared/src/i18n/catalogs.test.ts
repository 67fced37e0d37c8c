import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_ERROR_CODES } from '../error-codes.ts';
import { LANGUAGE_TAGS, type Locale } from '../locales.ts';
import en from './en.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };

type Tree = { [key: string]: unknown };

/** `{ a: { b: 'x' } }` → `{ 'a.b': 'x' }`; a non-string leaf is kept as is so the tests can flag it. */
function flatten(tree: Tree, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value)) Object.assign(out, flatten(value as Tree, name));
    else out[name] = value;
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]!))].sort();
}

const catalogs: Record<Locale, Record<string, unknown>> = { en: flatten(en), pt: flatten(pt), 'pt-BR': flatten(ptBR) };
const english = catalogs.en;
const translations = [
  ['pt', catalogs.pt],
  ['pt-BR', catalogs['pt-BR']],
] as const;

const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/**
 * The plural keys of en, i18next-style (`pets.added` for `pets.added_one` and `pets.added_other`). Both forms are
 * needed: `pets.species_other` alone is the species "Other", not a plural.
 */
const pluralKeys = Object.keys(english)
  .filter((key) => key.endsWith('_one') && `${key.slice(0, -'_one'.length)}_other` in english)
  .map((key) => key.slice(0, -'_one'.length));

/** `pets.added_many` → `pets.added`; any other key is itself. */
function pluralKeyOf(key: string): string {
  const category = PLURAL_CATEGORIES.find((suffix) => key.endsWith(`_${suffix}`));
  const base = category ? key.slice(0, -`_${category}`.length) : key;
  return pluralKeys.includes(base) ? base : key;
}

/** The keys of a catalog with plural forms folded into their plural key; the forms differ by language. */
function withoutPluralForms(catalog: Record<string, unknown>): string[] {
  return [...new Set(Object.keys(catalog).map(pluralKeyOf))];
}

/** The en string a translated key stands for: itself, or for a form en lacks (`_many`) en's `_other`. */
function englishOf(key: string): unknown {
  return key in english ? english[key] : english[`${pluralKeyOf(key)}_other`];
}

describe('interface catalogs', () => {
  it.each(translations)('%s has exactly the keys of en, plural forms aside', (locale, catalog) => {
    const keys = withoutPluralForms(catalog);
    const englishKeys = withoutPluralForms(english);
    const missing = englishKeys.filter((key) => !keys.includes(key));
    const extra = keys.filter((key) => !englishKeys.includes(key));
    expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
  });

  it.each(Object.entries(catalogs))(
    '%s has exactly the plural forms its plural rules use, for every plural key',
    (locale, catalog) => {
      // en: one, other. pt and pt-BR: one, many (1 000 000), other; pt-PT differs from pt only in where 0 goes.
      const rules = new Intl.PluralRules(LANGUAGE_TAGS[locale as Locale]).resolvedOptions().pluralCategories;
      const needed = PLURAL_CATEGORIES.filter((category) => rules.includes(category));
      const wrong = pluralKeys
        .map((key) => ({ key, forms: PLURAL_CATEGORIES.filter((category) => `${key}_${category}` in catalog) }))
        .filter(({ forms }) => forms.join() !== needed.join());
      expect(wrong, `${locale}: plural keys without exactly the forms ${needed.join(', ')}`).toEqual([]);
    },
  );

  it.each(Object.entries(catalogs))('%s has only non-empty strings', (locale, catalog) => {
    const bad = Object.entries(catalog)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
    expect(bad, `${locale}: empty or non-string entries`).toEqual([]);
  });

  it.each(translations)('%s uses the same {{placeholders}} as en in every string', (locale, catalog) => {
    const mismatched = Object.entries(catalog)
      .filter(([key, value]) => typeof value === 'string' && typeof englishOf(key) === 'string')
      .map(([key, value]) => ({ key, en: placeholders(String(englishOf(key))), [locale]: placeholders(String(value)) }))
      .filter((entry) => JSON.stringify(entry.en) !== JSON.stringify(entry[locale]));
    expect(mismatched).toEqual([]);
  });

  it('has a message in en for every API error code', () => {
    const missing = ERROR_CODES.filter((code) => typeof english[`errors.${code}`] !== 'string');
    expect(missing, 'codes without errors.<code> in en.json').toEqual([]);
  });

  it('has a message in en for every field error code', () => {
    const missing = FIELD_ERROR_CODES.filter((code) => typeof english[`validation.${code}`] !== 'string');
    expect(missing, 'codes without validation.<code> in en.json').toEqual([]);
  });

  it('flattens nested keys and reads placeholders (the checks above rely on it)', () => {
    // Guards the helpers themselves: a broken flatten() or placeholders() would make the checks above vacuous.
    expect(english['nav.signed_in_as']).toBe('Signed in as {{name}}');
    expect(placeholders('Hi {{ name }}, {{count}} and {{name}}')).toEqual(['count', 'name']);
    expect(Object.keys(english).length).toBeGreaterThan(100);
    expect(pluralKeys).toContain('pets.added');
    expect(pluralKeys).not.toContain('pets.species');
    expect(withoutPluralForms({ 'pets.added_one': '', 'pets.added_many': '', 'pets.species_other': '' })).toEqual([
      'pets.added',
      'pets.species_other',
    ]);
    expect(englishOf('pets.added_many')).toBe(english['pets.added_other']);
  });
});
