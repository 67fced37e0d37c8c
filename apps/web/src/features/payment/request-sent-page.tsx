import { useEffect, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../app/layouts/public-layout';
import { currentLocale } from '../../lib/i18n';
import { PaymentProblem } from './payment-problem';
import {
  PAYMENT_POLL_ATTEMPTS,
  PAYMENT_POLL_INTERVAL_MS,
  requestConfirmedPath,
  validatePayment,
} from './validate-payment';

/** How long the 'request sent' message stays before Request Confirmed opens by itself. */
export const REQUEST_SENT_PAUSE_MS = 3000;

type Phase = { name: 'waiting'; slow: boolean } | { name: 'sent'; next: string } | { name: 'failed' };

/**
 * docs/product-rules.md#request-sent /requestsent/{payment_hash}: where the payment page returns. A waiting state while
 * the payment is looked up and confirmed, then the 'request sent' message and Request Confirmed, or the
 * payment problem with the support contact (docs/product-rules.md#errors).
 */
export function RequestSentPage({
  pollIntervalMs = PAYMENT_POLL_INTERVAL_MS,
  pollAttempts = PAYMENT_POLL_ATTEMPTS,
}: {
  pollIntervalMs?: number;
  pollAttempts?: number;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const paymentHash = useParams().payment_hash ?? '';
  const [phase, setPhase] = useState<Phase>({ name: 'waiting', slow: false });
  /** Bumped by 'Try again': the webhook may still arrive after the wait ran out. */
  const [run, setRun] = useState(0);

  useEffect(() => {
    // Restartable rather than run-once: both calls are idempotent, and an aborted run leaves nothing behind.
    const controller = new AbortController();
    const locale = currentLocale();
    validatePayment(paymentHash, locale, {
      signal: controller.signal,
      intervalMs: pollIntervalMs,
      attempts: pollAttempts,
      onPending: () => setPhase({ name: 'waiting', slow: true }),
    }).then(
      (lookup) => setPhase({ name: 'sent', next: requestConfirmedPath(lookup, locale) }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('payment validation failed', error);
        setPhase({ name: 'failed' });
      },
    );
    return () => controller.abort();
  }, [paymentHash, pollIntervalMs, pollAttempts, run]);

  const next = phase.name === 'sent' ? phase.next : undefined;
  useEffect(() => {
    if (!next) return;
    const timer = setTimeout(() => void navigate(next, { replace: true }), REQUEST_SENT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [next, navigate]);

  return (
    <PublicLayout heading={t('request_sent.heading')}>
      <Stack>
        {phase.name === 'waiting' && (
          <Group role="status" wrap="nowrap">
            <Loader size="sm" aria-hidden />
            <Text>{t(phase.slow ? 'request_sent.still_waiting' : 'request_sent.waiting')}</Text>
          </Group>
        )}
        {phase.name === 'sent' && (
          <>
            <Alert color="brand" role="status" title={t('request_sent.success_title')}>
              {t('request_sent.success')}
            </Alert>
            <Group justify="flex-end">
              <Button onClick={() => void navigate(phase.next, { replace: true })}>{t('request_sent.continue')}</Button>
            </Group>
          </>
        )}
        {phase.name === 'failed' && <PaymentProblem message={t('request_sent.problem')} reference={paymentHash} />}
        {phase.name === 'failed' && (
          <Group justify="flex-end">
            <Button
              variant="light"
              onClick={() => {
                setPhase({ name: 'waiting', slow: false });
                setRun((value) => value + 1);
              }}
            >
              {t('request_sent.try_again')}
            </Button>
          </Group>
        )}
      </Stack>
    </PublicLayout>
  );
}
