import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_ERROR_CODES } from '../error-codes.ts';
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

const catalogs = { en: flatten(en), pt: flatten(pt), 'pt-BR': flatten(ptBR) };
const english = catalogs.en;
const translations = [
  ['pt', catalogs.pt],
  ['pt-BR', catalogs['pt-BR']],
] as const;

describe('interface catalogs', () => {
  it.each(translations)('%s has exactly the keys of en', (locale, catalog) => {
    const missing = Object.keys(english).filter((key) => !(key in catalog));
    const extra = Object.keys(catalog).filter((key) => !(key in english));
    expect({ locale, missing, extra }).toEqual({ locale, missing: [], extra: [] });
  });

  it.each(Object.entries(catalogs))('%s has only non-empty strings', (locale, catalog) => {
    const bad = Object.entries(catalog)
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
    expect(bad, `${locale}: empty or non-string entries`).toEqual([]);
  });

  it.each(translations)('%s uses the same {{placeholders}} as en in every string', (locale, catalog) => {
    const mismatched = Object.entries(english)
      .filter(([key]) => typeof catalog[key] === 'string')
      .map(([key, value]) => ({ key, en: placeholders(String(value)), [locale]: placeholders(String(catalog[key])) }))
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
  });
});
