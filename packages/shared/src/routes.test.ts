import { describe, expect, it } from 'vitest';
import en from './i18n/en.json' with { type: 'json' };
import pt from './i18n/pt.json' with { type: 'json' };
import ptBR from './i18n/pt-BR.json' with { type: 'json' };
import { NOT_FOUND_TITLE_KEY, ROUTES } from './routes.ts';

type Tree = { [key: string]: unknown };

const message = (catalog: Tree, key: string): unknown =>
  key.split('.').reduce<unknown>((node, part) => (node as Tree | undefined)?.[part], catalog);

const titleKeys = [...ROUTES.map((route) => route.titleKey), NOT_FOUND_TITLE_KEY];

describe('page titles (docs/product-rules.md#routes)', () => {
  it.each(ROUTES.map((route) => [route.name, route.title, route.titleKey]))(
    'in English, %s is exactly the route table title',
    (_name, title, key) => {
      expect(message(en, key)).toBe(title);
    },
  );

  it.each([
    ['pt', pt],
    ['pt-BR', ptBR],
  ])('are translated in %s', (_locale, catalog) => {
    const untranslated = titleKeys.filter((key) => {
      const text = message(catalog, key);
      return typeof text !== 'string' || text === '' || text === message(en, key);
    });
    expect(untranslated).toEqual([]);
  });
});
