import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { normalizeLocale } from '@vetcall/shared/locales';
import { PublicLayout } from '../../app/layouts/public-layout';
import { clientConfig } from '../../lib/client-config';
import { currentLocale } from '../../lib/i18n';
import { PaymentProblem } from './payment-problem';
import { parseConfirmedQuery } from './confirmed-query';
import { formatEuros } from '../../lib/format';
import { trackPurchase } from './purchase-analytics';
import { useCustomerOnly } from './use-customer-only';

/** The root layout switches to ?lang=; if that fails, the page stops waiting and shows the current language. */
const LANGUAGE_WAIT_MS = 5000;

/**
 * docs/product-rules.md#request-confirmed /requestconfirmed/?paymentHash&lang&value&item_name&is_first_purchase: a
 * logged-in customer only. Waits for the requested language, then thanks the customer and says the request is scheduled
 * (or shows the payment problem when the query is incomplete), and sends the purchase analytics event
 * (docs/product-rules.md#api) when analytics is configured. OK goes home to /customer, which the navigation guard
 * allows from here (docs/product-rules.md#navigation-guard).
 */
export function RequestConfirmedPage() {
  const allowed = useCustomerOnly();
  return allowed ? <RequestConfirmed /> : null;
}

function RequestConfirmed() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const query = search.toString();
  const purchase = useMemo(() => parseConfirmedQuery(new URLSearchParams(query)), [query]);

  const requestedLocale = normalizeLocale(search.get('lang'));
  const [stoppedWaiting, setStoppedWaiting] = useState(false);
  const waiting =
    requestedLocale !== undefined && requestedLocale !== normalizeLocale(i18n.language) && !stoppedWaiting;
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setStoppedWaiting(true), LANGUAGE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [waiting]);

  useEffect(() => {
    if (purchase) trackPurchase(clientConfig().ga_measurement_id, purchase);
  }, [purchase]);

  const locale = currentLocale();
  return (
    <PublicLayout heading={t('request_confirmed.heading')}>
      <Stack>
        {waiting && (
          <Group role="status" wrap="nowrap">
            <Loader size="sm" aria-hidden />
            <Text>{t('request_confirmed.waiting')}</Text>
          </Group>
        )}
        {!waiting && purchase && (
          <Alert color="brand" role="status" title={t('request_confirmed.thanks_title')}>
            <Text size="sm">
              {purchase.valueCents === 0
                ? t('request_confirmed.thanks_included', { item: purchase.itemName })
                : t('request_confirmed.thanks', {
                    item: purchase.itemName,
                    amount: formatEuros(purchase.valueCents, locale),
                  })}
            </Text>
            <Text size="sm" mt="xs">
              {t('request_confirmed.schedule_confirmed')}
            </Text>
          </Alert>
        )}
        {!waiting && !purchase && (
          <PaymentProblem message={t('request_confirmed.problem')} reference={search.get('paymentHash')} />
        )}
        <Group justify="flex-end">
          <Button disabled={waiting} onClick={() => void navigate('/customer')}>
            {t('common.ok')}
          </Button>
        </Group>
      </Stack>
    </PublicLayout>
  );
}
