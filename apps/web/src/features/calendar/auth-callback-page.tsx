import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../app/layouts/public-layout';
import { clientConfig } from '../../lib/client-config';
import { changeLanguage, currentLocale } from '../../lib/i18n';
import { storeCalendarToken } from './api/calendar';
import { parseCallbackState } from './callback-state';

type Phase = 'processing' | 'success' | 'error';

/** Tokens already sent from this page: a remount (or React's strict double effect) must not send one twice. */
const handledTokens = new Set<string>();

/**
 * docs/product-rules.md#calendar-callback /auth/callback: the calendar provider returns here with
 * ?token=…&state=vet_id:… lang:… access:…. The language switches, the token is stored (PUT /api/vets/token/{vet_id}),
 * and the vet sees progress, then a thank-you or the calendar-association problem with a contact-support hint; OK goes
 * to /vetdata.
 */
export function AuthCallbackPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search] = useSearchParams();
  const [phase, setPhase] = useState<Phase>('processing');
  const state = parseCallbackState(search.get('state'));
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = search.get('token') ?? '';
    const refused = (search.get('status') ?? 'success') !== 'success';
    // The token must not stay in the address bar or the history.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    async function run() {
      if (state.lang) await changeLanguage(state.lang).catch(() => undefined);
      if (!token || refused || state.vetId === undefined || handledTokens.has(token)) {
        setPhase('error');
        return;
      }
      handledTokens.add(token);
      try {
        await storeCalendarToken(state.vetId, token);
        await queryClient.invalidateQueries({ queryKey: ['vet-profile'] });
        setPhase('success');
      } catch (error) {
        console.error('calendar token update failed', error);
        setPhase('error');
      }
    }
    void run();
    // Runs once, on arrival: the query is read then and removed from the address bar.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const lang = state.lang ?? currentLocale();
  const access = state.access ?? 'vet';
  return (
    <PublicLayout heading={t('calendar.callback_title')}>
      <Stack>
        {phase === 'processing' && (
          <Group role="status">
            <Loader size="sm" aria-hidden />
            <Text>{t('calendar.callback_processing')}</Text>
          </Group>
        )}
        {phase === 'success' && (
          <Alert color="brand" role="status" title={t('calendar.callback_success_title')}>
            {t('calendar.callback_success')}
          </Alert>
        )}
        {phase === 'error' && (
          <Alert color="red" role="alert" title={t('calendar.callback_problem_title')}>
            <Text size="sm">{t('calendar.callback_problem')}</Text>
            <Text size="sm" mt="xs">
              {t('calendar.contact_support', { email: clientConfig().support_email })}
            </Text>
          </Alert>
        )}
        <Group justify="flex-end">
          <Button
            disabled={phase === 'processing'}
            onClick={() =>
              void navigate(`/vetdata?lang=${encodeURIComponent(lang)}&access=${encodeURIComponent(access)}`)
            }
          >
            {t('common.ok')}
          </Button>
        </Group>
      </Stack>
    </PublicLayout>
  );
}
