import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { normalizeLocale } from '@vetcall/shared/locales';
import { DEFAULT_PAGE_TITLE } from '@vetcall/shared/routes';
import { PageLoading } from '../components/ui/page-loading';
import { onUnauthorized } from '../lib/api-client';
import { clearAppQueries } from '../lib/app-queries';
import { authStore } from '../lib/auth-store';
import { changeLanguage, currentLocale } from '../lib/i18n';
import { notifyError } from '../lib/notify';

interface RouteHandle {
  /** The catalog key of the page title (docs/decisions/013-page-titles-follow-the-language.md). */
  titleKey?: string;
}

/** Wraps every route: page title, the loading state of a screen being fetched, ?lang= switching, and what happens when a session ends. */
export function RootLayout() {
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation();

  const titleKey = [...matches]
    .reverse()
    .map((match) => (match.handle as RouteHandle | undefined)?.titleKey)
    .find(Boolean);
  // The title is in the page's language: `t` changes with it.
  const title = titleKey ? t(titleKey) : DEFAULT_PAGE_TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);

  // docs/product-rules.md#product: a lang query parameter switches language, on any route.
  const requestedLocale = normalizeLocale(new URLSearchParams(location.search).get('lang'));
  // Runs when the parameter changes, not when the language does, so other switchers are not undone.
  useEffect(() => {
    if (requestedLocale && requestedLocale !== currentLocale()) {
      changeLanguage(requestedLocale).catch(() => notifyError(i18next.t('errors.network_error')));
    }
  }, [requestedLocale]);

  useEffect(
    () =>
      onUnauthorized(() => {
        authStore.clear();
        clearAppQueries();
        notifyError(t('session.expired'));
        void navigate('/', { replace: true });
      }),
    [navigate, t],
  );

  // Screens load lazily (router.tsx): the title above is already set while one is fetched.
  return (
    <Suspense fallback={<PageLoading />}>
      <Outlet />
    </Suspense>
  );
}
