import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import en from '@vetcall/shared/i18n/en.json';
import pt from '@vetcall/shared/i18n/pt.json';
import ptBR from '@vetcall/shared/i18n/pt-BR.json';
import { isLocale, type Locale } from '@vetcall/shared/locales';
import { fakeApi } from '../test/fake-api';
import { initTestI18n, renderRoutes } from '../test/render';
import { routes } from './router';

const CATALOGS: Record<Locale, unknown> = { en, pt, 'pt-BR': ptBR };

/** The app's own routes, entered at `path`; the catalogs come from GET /api/translations/{lang} as in the app. */
function open(path: string) {
  fakeApi().raw('GET', /^\/api\/translations\/([\w-]+)$/, ({ match }) =>
    isLocale(match[1])
      ? new Response(JSON.stringify(CATALOGS[match[1]]), { headers: { 'content-type': 'application/json' } })
      : new Response(null, { status: 404 }),
  );
  return renderRoutes(routes, path);
}

/** The registration page loads its form and password meter lazily, which can take over waitFor's 1 s on a busy machine. */
const TITLE_WAIT = { timeout: 5_000 };

describe('page titles (docs/product-rules.md#routes): SPEC §2.1 in English, translated in pt and pt-BR', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(async () => {
    await i18next.changeLanguage('en');
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps the English titles of the route table', async () => {
    open('/resetpassword?lang=en');
    await waitFor(() => expect(document.title).toBe('Reset Password'), TITLE_WAIT);
  });

  it.each([
    ['pt', '/resetpassword', 'Recuperar palavra-passe'],
    ['pt-BR', '/resetpassword', 'Redefinir senha'],
    ['pt', '/registration', 'Registo de novo cliente'],
    ['pt-BR', '/registration', 'Cadastro de novo cliente'],
  ])('follows the language: %s %s', async (lang, path, title) => {
    open(`${path}?lang=${lang}`);
    await waitFor(() => expect(document.title).toBe(title), TITLE_WAIT);
  });

  it('changes with the language on the same page', async () => {
    const { router } = open('/resetpassword?lang=pt-BR');
    await waitFor(() => expect(document.title).toBe('Redefinir senha'), TITLE_WAIT);
    await router.navigate('/resetpassword?lang=en');
    await waitFor(() => expect(document.title).toBe('Reset Password'), TITLE_WAIT);
  });

  it('gives the not-found page a title of its own, translated', async () => {
    open('/no/such/page?lang=en');
    await waitFor(() => expect(document.title).toBe('Page Not Found'), TITLE_WAIT);
    await i18next.changeLanguage('pt-PT');
    await waitFor(() => expect(document.title).toBe('Página não encontrada'), TITLE_WAIT);
  });
});
