import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '@vetcall/shared/i18n/en.json';
import pt from '@vetcall/shared/i18n/pt.json';
import ptBR from '@vetcall/shared/i18n/pt-BR.json';
import { type Locale, isLocale } from '@vetcall/shared/locales';
import { fakeApi } from '../test/fake-api';
import { changeLanguage, currentLocale, initI18n } from './i18n';

type Tree = { [key: string]: unknown };

const CATALOGS: Record<Locale, Tree> = { en, pt, 'pt-BR': ptBR };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') Object.assign(out, flatten(value as Tree, name));
    else out[name] = String(value);
  }
  return out;
}

const english = flatten(en);
/** `pets.added` for `pets.added_one` + `pets.added_other`; `pets.species_other` alone is the species, not a plural. */
const PLURAL_KEYS = Object.keys(english)
  .filter((key) => key.endsWith('_one') && `${key.slice(0, -'_one'.length)}_other` in english)
  .map((key) => key.slice(0, -'_one'.length));

const COUNTS = [0, 1, 2, 1_000_000] as const;

/**
 * The form CLDR gives each count, written out rather than asked of Intl.PluralRules so the test does not repeat
 * the code under test: Portugal's Portuguese counts 0 as plural, Brazil's as singular; both have `many` for
 * 1 000 000.
 */
const EXPECTED_FORM: Record<Locale, Record<(typeof COUNTS)[number], string>> = {
  en: { 0: 'other', 1: 'one', 2: 'other', 1_000_000: 'other' },
  pt: { 0: 'other', 1: 'one', 2: 'other', 1_000_000: 'many' },
  'pt-BR': { 0: 'one', 1: 'one', 2: 'other', 1_000_000: 'many' },
};

describe('i18n: plurals through the app set-up', () => {
  beforeEach(async () => {
    // The catalogs come from GET /api/translations/{lang}, which serves the shared JSON files as they are.
    fakeApi().raw('GET', /^\/api\/translations\/([\w-]+)$/, ({ match }) => {
      const locale = match[1];
      return isLocale(locale)
        ? new Response(JSON.stringify(CATALOGS[locale]), { headers: { 'content-type': 'application/json' } })
        : new Response(null, { status: 404 });
    });
    if (!i18next.isInitialized) await initI18n('en');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('finds the plural keys (the checks below are only as good as this list)', () => {
    expect(PLURAL_KEYS).toContain('pets.added');
    expect(PLURAL_KEYS).toContain('video.toolbar.unread');
    expect(PLURAL_KEYS).not.toContain('pets.species');
    expect(PLURAL_KEYS.length).toBeGreaterThanOrEqual(12);
  });

  it.each(Object.keys(EXPECTED_FORM) as Locale[])(
    '%s renders every plural key for 0, 1, 2 and 1 000 000 with its CLDR form',
    async (locale) => {
      await changeLanguage(locale);
      expect(currentLocale()).toBe(locale);
      const catalog = flatten(CATALOGS[locale]);
      const rendered = PLURAL_KEYS.flatMap((key) =>
        COUNTS.map((count) => ({ key, count, text: i18next.t(key, { count }) })),
      );
      const wrong = rendered.filter(({ key, count, text }) => {
        const template = catalog[`${key}_${EXPECTED_FORM[locale][count]}`];
        return text === key || template === undefined || text !== template.replaceAll('{{count}}', String(count));
      });
      expect(wrong).toEqual([]);
      expect(rendered.filter(({ text }) => text.includes('{{'))).toEqual([]);
    },
  );

  it('writes 0 in the plural in pt (Portugal) and in the singular in pt-BR, as CLDR does', async () => {
    await changeLanguage('pt');
    expect(i18next.t('pets.added', { count: 0 })).toBe('0 animais adicionados.');
    expect(i18next.t('pets.months', { count: 0 })).toBe('0 meses');
    expect(i18next.t('pets.added', { count: 1_000_000 })).toBe('1000000 animais adicionados.');
    await changeLanguage('pt-BR');
    expect(i18next.t('pets.added', { count: 0 })).toBe('Animal adicionado.');
    expect(i18next.t('pets.months', { count: 0 })).toBe('0 mês');
    await changeLanguage('en');
    expect(i18next.t('pets.added', { count: 0 })).toBe('0 pets added.');
  });

  it('keeps the locale, not the language tag, in storage and on the page', async () => {
    await changeLanguage('pt');
    expect(i18next.language).toBe('pt-PT');
    expect(currentLocale()).toBe('pt');
    expect(document.documentElement.lang).toBe('pt');
    expect(window.localStorage.getItem('vetcall.lang')).toBe('pt');
  });
});
