import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useTranslation } from 'react-i18next';
import { normalizeLocale } from '@vetcall/shared/locales';
import { DEFAULT_PAGE_TITLE } from '@vetcall/shared/routes';
import { onUnauthorized } from '../lib/api-client';
import { authStore } from '../lib/auth-store';
import { changeLanguage, currentLocale } from '../lib/i18n';
import { notifyError } from '../lib/notify';

interface RouteHandle {
  title?: string;
}

/** Wraps every route: page title, ?lang= switching, and what happens when a session ends. */
export function RootLayout() {
  const matches = useMatches();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();

  const title = [...matches]
    .reverse()
    .map((match) => (match.handle as RouteHandle | undefined)?.title)
    .find(Boolean);
  useEffect(() => {
    document.title = title ?? DEFAULT_PAGE_TITLE;
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
        queryClient.clear();
        notifyError(t('session.expired'));
        void navigate('/', { replace: true });
      }),
    [navigate, queryClient, t],
  );

  return <Outlet />;
}
