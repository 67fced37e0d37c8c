import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import en from '@vetcall/shared/i18n/en.json';
import ptBR from '@vetcall/shared/i18n/pt-BR.json';
import pt from '@vetcall/shared/i18n/pt.json';
import { AppProviders } from '../app/providers';
import { ScreenProviders, createQueryClient } from '../app/screen-providers';

/** i18next with the real English catalog, as the app has it after start-up. */
export async function initTestI18n() {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: 'en',
      resources: { en: { translation: en } },
      interpolation: { escapeValue: false },
    });
  }
  await i18next.changeLanguage('en');
}

/** Adds the real pt and pt-BR catalogs, for tests that switch to them with i18next.changeLanguage. */
export function addPortugueseCatalogs() {
  i18next.addResourceBundle('pt', 'translation', pt);
  i18next.addResourceBundle('pt-BR', 'translation', ptBR);
}

/** Renders routes inside the real providers, starting at `path`; the screens' own as each screen but Login has them. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProviders>
      <ScreenProviders client={createQueryClient()}>
        <RouterProvider router={router} />
      </ScreenProviders>
    </AppProviders>,
  );
  return { ...utils, router };
}

export function withProviders(children: ReactNode) {
  return (
    <AppProviders>
      <ScreenProviders client={createQueryClient()}>{children}</ScreenProviders>
    </AppProviders>
  );
}
