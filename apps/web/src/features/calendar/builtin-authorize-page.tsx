import { useState } from 'react';
import { Alert, Button, Group, List, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../app/layouts/public-layout';
import { useSession } from '../../lib/auth-store';
import { apiErrorMessage } from '../../lib/form-errors';
import { grantBuiltinCalendar } from './api/calendar';
import { parseCallbackState } from './callback-state';

/** Only our own /auth/callback may receive a token: anything else would be an open redirect. */
function callbackUrl(returnUrl: string | null): URL | null {
  if (!returnUrl) return null;
  try {
    const url = new URL(returnUrl, window.location.origin);
    return url.origin === window.location.origin && url.pathname === '/auth/callback' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The built-in calendar's authorisation page (CALENDAR_PROVIDER=builtin): what an external provider's
 * consent screen is for Aurinko. Allow asks the server for a one-time token and returns to /auth/callback
 * with it and the state, as the provider would; Deny returns with status=denied.
 */
export function BuiltinAuthorizePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const target = callbackUrl(search.get('returnUrl'));
  const stateText = search.get('state') ?? '';
  const { vetId } = parseCallbackState(stateText);
  const valid = target !== null && vetId !== undefined && search.get('responseType') === 'token';

  function returnWith(params: Record<string, string>) {
    const url = new URL(target!);
    for (const [key, value] of Object.entries({ ...params, state: stateText })) url.searchParams.set(key, value);
    window.location.assign(url.toString());
  }

  async function allow() {
    setBusy(true);
    setFailure(null);
    try {
      const { token } = await grantBuiltinCalendar(vetId!);
      returnWith({ token, status: 'success' });
    } catch (error) {
      setFailure(apiErrorMessage(t, error, 'calendar.grant_error'));
      setBusy(false);
    }
  }

  return (
    <PublicLayout heading={t('calendar.authorize_title')}>
      {!valid || user?.type !== 'vet' ? (
        <Alert color="red" role="alert">
          {t(valid ? 'calendar.authorize_login_needed' : 'calendar.authorize_invalid')}
        </Alert>
      ) : (
        <Stack>
          <Text>{t('calendar.authorize_intro', { email: search.get('loginHint') ?? user.email })}</Text>
          <List size="sm">
            <List.Item>{t('calendar.authorize_scope_read')}</List.Item>
            <List.Item>{t('calendar.authorize_scope_write')}</List.Item>
          </List>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" disabled={busy} onClick={() => returnWith({ status: 'denied' })}>
              {t('calendar.deny')}
            </Button>
            <Button loading={busy} onClick={() => void allow()}>
              {t('calendar.allow')}
            </Button>
          </Group>
        </Stack>
      )}
    </PublicLayout>
  );
}
