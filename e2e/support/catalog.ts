import { readFileSync } from 'node:fs';

export type Lang = 'en' | 'pt' | 'pt-BR';

type Catalog = { [key: string]: string | Catalog };

/**
 * The product's own messages (packages/shared/src/i18n), so a journey run in another language finds its
 * controls by the words a reader of that language sees, and a changed wording changes one place.
 */
export function catalog(lang: Lang) {
  const data = JSON.parse(
    readFileSync(new URL(`../../packages/shared/src/i18n/${lang}.json`, import.meta.url), 'utf8'),
  ) as Catalog;
  const t = (key: string, values: Record<string, string> = {}): string => {
    let node: string | Catalog | undefined = data;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no message ${key} in ${lang}`);
    return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? `{{${name}}}`);
  };
  /** A message as the start of a label (required fields add a mark, some labels go on). */
  const startOf = (key: string, values: Record<string, string> = {}) => new RegExp(`^${escape(t(key, values))}`);
  /** The words of a message before its first placeholder. */
  const prefix = (key: string) => t(key).split('{{')[0]!;
  /** A message without its closing punctuation, as the start of a text that may go on (':' or '.' and more). */
  const stemOf = (key: string) => new RegExp(`^${escape(t(key).replace(/[.:!]$/, ''))}`);
  return { t, startOf, prefix, stemOf };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
