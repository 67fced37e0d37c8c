import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import en from '@vetcall/shared/i18n/en.json';
import { AppProviders, createQueryClient } from '../app/providers';

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

/** Renders routes inside the real providers, starting at `path`. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router };
}

export function withProviders(children: ReactNode) {
  return <AppProviders queryClient={createQueryClient()}>{children}</AppProviders>;
}
