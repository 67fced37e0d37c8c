import { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { LANGUAGE_TAGS, LOCALES, type Locale } from '@vetcall/shared/locales';
import { ROUTES } from '@vetcall/shared/routes';
import { AppProviders } from '../app/providers';
import { ScreenProviders } from '../app/screen-providers';
import { LoginPage } from '../features/auth/login-page';
import { CustomerPage } from '../features/customers/customer-page';
import { RegistrationPage } from '../features/customers/registration-page';
import { setDrawnSession } from '../lib/auth-store';
import type { SessionUser } from '@vetcall/shared/schemas/auth';
import { type ClientConfig, provideClientConfig } from '../lib/client-config';

/**
 * The screens the server draws before the app's code arrives (docs/decisions/025-public-pages-drawn-on-the-server.md):
 * the ones a person reaches from outside without a session, whose content is the same for everyone.
 * Built for Node by `vite build --ssr` (apps/web/dist-ssr), loaded by the server when it first serves one.
 */
const SCREENS = {
  Login: LoginPage,
  Registration: RegistrationPage,
  Customer: CustomerPage,
} as const;

/**
 * The customer's home drawn for no one in particular: the shell, the heading and the booking form's loading
 * state, without a name or data (the app fills them in when it takes over). Whoever asks for /customer without
 * a customer's session sees it until the app sends them on, as it did before with an empty page.
 */
function noOneOn(screen: PrerenderedScreen, locale: Locale): SessionUser | null {
  return screen === 'Customer' ? { user_id: 0, type: 'customer', name: '', email: '', locale } : null;
}

export type PrerenderedScreen = keyof typeof SCREENS;

export interface PublicPage {
  /** The screen's markup, as the app draws it inside #root. */
  html: string;
  /** The page title in the locale, as the app sets it (docs/decisions/013-page-titles-follow-the-language.md). */
  title: string;
}

export interface PublicPageRenderer {
  render(screen: PrerenderedScreen, locale: Locale): Promise<PublicPage>;
}

/**
 * The drawing cannot be used until the app replaces it: its fields take no typing (which the replacement would
 * lose) and its forms cannot be sent (the browser would send them as a query). Other buttons do nothing without
 * the app: they say so (aria-disabled) but keep their look, since Mantine hides a disabled show-password button.
 * Links work: they are plain links.
 */
function untilTheAppRuns(html: string): string {
  return html
    .replace(/<(input|textarea)\b/g, '<$1 readonly')
    .replace(/<select\b/g, '<select disabled')
    .replace(/<button\b(?=[^>]*\btype="submit")/g, '<button disabled')
    .replace(/<button\b(?![^>]*\bdisabled)/g, '<button aria-disabled="true"');
}

/** The catalogs of every locale and the client configuration, as the browser would fetch them. */
export async function createPublicPageRenderer(options: {
  catalogs: Readonly<Record<Locale, Record<string, unknown>>>;
  clientConfig: ClientConfig;
}): Promise<PublicPageRenderer> {
  provideClientConfig(options.clientConfig);
  // The app's own instance and settings (lib/i18n.ts), with every catalog in: a render in one locale is a switch.
  await i18next.use(initReactI18next).init({
    lng: LANGUAGE_TAGS.pt,
    resources: Object.fromEntries(
      LOCALES.map((locale) => [LANGUAGE_TAGS[locale], { translation: options.catalogs[locale] }]),
    ),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  // The screens' providers as the app has them (app/screen-providers.tsx), without the browser's focus listening.
  const queries = new QueryClient();
  return {
    async render(screen, locale) {
      await i18next.changeLanguage(LANGUAGE_TAGS[locale]);
      const route = ROUTES.find((candidate) => candidate.name === screen)!;
      const Screen = SCREENS[screen];
      setDrawnSession(noOneOn(screen, locale));
      // What the app draws in #root on this route (app/start.tsx): the root layout and the router add no markup.
      const html = renderToString(
        <StrictMode>
          <AppProviders>
            <MemoryRouter initialEntries={[route.path]}>
              {screen === 'Login' ? (
                <Screen />
              ) : (
                <ScreenProviders client={queries}>
                  <Screen />
                </ScreenProviders>
              )}
            </MemoryRouter>
          </AppProviders>
        </StrictMode>,
      );
      return { html: untilTheAppRuns(html), title: i18next.t(route.titleKey) };
    },
  };
}
