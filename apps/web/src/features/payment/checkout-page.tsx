import { useState } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Divider,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { type Checkout, type CheckoutPay, checkoutPaySchema } from '@vetcall/shared/schemas/booking';
import { PublicLayout } from '../../app/layouts/public-layout';
import { ApiError } from '../../lib/api-client';
import { clientConfig } from '../../lib/client-config';
import { actionErrorMessage } from '../../lib/form-errors';
import { browserTimeZone, formatDateTime, formatTime } from '../../lib/format';
import { currentLocale } from '../../lib/i18n';
import { useFieldProps } from '../../lib/use-field-props';
import { cancelCheckout, fetchCheckout, payCheckout } from './api/payment';
import { pageExit } from './leave-page';
import { formatEuros } from '../../lib/format';
import { useCustomerOnly } from './use-customer-only';

/**
 * /checkout/{payment_hash}: the built-in hosted checkout (PAYMENT_PROVIDER=builtin), where Stripe's page
 * would be. It shows what is bought and for how much, takes a test card, and hands the browser back to
 * Request Sent (paid) or to the booking screen (canceled). Only the customer who booked may pay.
 */
export function CheckoutPage() {
  const allowed = useCustomerOnly();
  const paymentHash = useParams().payment_hash ?? '';
  return allowed ? <CheckoutContent paymentHash={paymentHash} /> : null;
}

function CheckoutContent({ paymentHash }: { paymentHash: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const checkout = useQuery({
    queryKey: ['checkout', paymentHash, locale],
    queryFn: ({ signal }) => fetchCheckout(paymentHash, locale, signal),
    // A change of language asks again; the card being typed stays on the page meanwhile.
    placeholderData: keepPreviousData,
    // A refused or unknown payment will not change by asking again.
    retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status < 500 && error.status > 0),
  });

  // PAYMENT_PROVIDER=builtin chosen on purpose in production: whoever reaches this page must know no money moves.
  const { environment, payment_provider } = clientConfig();
  const notRealCheckout = environment === 'production' && payment_provider === 'builtin';

  return (
    <PublicLayout heading={t('checkout.heading')} width={560}>
      {notRealCheckout && (
        <Alert color="red" variant="filled" role="note" title={t('checkout.production_test_title')} mb="md">
          {t('checkout.production_test')}
        </Alert>
      )}
      {checkout.isPending && <Loader aria-label={t('app.loading')} />}
      {checkout.isError && (
        <Alert color="red" role="alert">
          {actionErrorMessage(t, checkout.error, 'checkout.load_error')}
        </Alert>
      )}
      {checkout.data && <CheckoutDetails checkout={checkout.data} />}
    </PublicLayout>
  );
}

function CheckoutDetails({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  return (
    <Stack>
      <section aria-labelledby="checkout-summary">
        <Title order={2} size="h4" id="checkout-summary" mb="xs">
          {t('checkout.summary')}
        </Title>
        <Box component="dl" m={0}>
          <SummaryRow label={t('checkout.item')} value={checkout.item_name} />
          <SummaryRow label={t('checkout.vet')} value={checkout.vet_name} />
          <SummaryRow label={t('checkout.pet')} value={checkout.pet_name} />
          <SummaryRow
            label={t('checkout.schedule')}
            value={t('checkout.schedule_in_zone', {
              dateTime: formatDateTime(checkout.schedule, locale),
              zone: browserTimeZone(),
            })}
          />
          <SummaryRow label={t('checkout.amount')} value={formatEuros(checkout.amount_cents, locale)} strong />
        </Box>
      </section>
      {checkout.status === 'TK_PendingPayment' ? (
        <>
          <Text size="sm" c="dimmed">
            {t('checkout.expires', { time: formatTime(checkout.expires_at, locale) })}
          </Text>
          <Divider />
          <CardForm checkout={checkout} />
        </>
      ) : (
        <ClosedPayment checkout={checkout} />
      )}
    </Stack>
  );
}

function SummaryRow({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" align="baseline" wrap="nowrap" gap="md" py={4}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} ta="right" fw={strong ? 700 : 500} size={strong ? 'lg' : 'sm'}>
        {value}
      </Text>
    </Group>
  );
}

/** Paid already (continue to Request Sent), or no longer payable (back to booking). */
function ClosedPayment({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation();
  const paid = checkout.status !== 'TK_PaymentFailed' && checkout.status !== 'TK_Canceled';
  return (
    <Alert color={paid ? 'brand' : 'red'} role={paid ? 'status' : 'alert'}>
      <Text size="sm">{t(paid ? 'checkout.already_paid' : 'errors.payment_closed')}</Text>
      {paid && (
        <Anchor component={Link} to={`/requestsent/${encodeURIComponent(checkout.payment_hash)}`} size="sm">
          {t('checkout.continue')}
        </Anchor>
      )}
    </Alert>
  );
}

function CardForm({ checkout }: { checkout: Checkout }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<CheckoutPay>({
    initialValues: { card_number: '', expiry: '', cvc: '', name: '' },
    validate: schemaResolver(checkoutPaySchema, { sync: true }),
    validateInputOnBlur: true,
  });
  const field = useFieldProps(form);
  const requestSent = `/requestsent/${encodeURIComponent(checkout.payment_hash)}`;

  const pay = useMutation({
    mutationFn: (card: CheckoutPay) => payCheckout(checkout.payment_hash, card, locale),
    onMutate: () => setFailure(null),
    onSuccess: ({ redirect_url }) => pageExit.leave(redirect_url, requestSent),
    onError: (error) => setFailure(actionErrorMessage(t, error, 'checkout.pay_error')),
  });
  const cancel = useMutation({
    mutationFn: () => cancelCheckout(checkout.payment_hash, locale),
    onMutate: () => setFailure(null),
    onSuccess: ({ redirect_url }) =>
      pageExit.leave(redirect_url, `/customerdata?lang=${currentLocale()}&access=customer&payment_canceled=1`),
    onError: (error) => setFailure(actionErrorMessage(t, error, 'checkout.cancel_error')),
  });
  const busy = pay.isPending || cancel.isPending || pay.isSuccess || cancel.isSuccess;

  return (
    <form onSubmit={form.onSubmit((values) => pay.mutate(values))} noValidate aria-labelledby="checkout-card">
      <Stack>
        <Title order={2} size="h4" id="checkout-card">
          {t('checkout.card_heading')}
        </Title>
        <Alert color="gray" role="note" title={t('checkout.test_mode_title')}>
          <Text size="sm">{t('checkout.test_mode')}</Text>
          <Text size="sm" mt={4}>
            {t('checkout.test_card_pays', { card: '4242 4242 4242 4242' })}
          </Text>
          <Text size="sm">{t('checkout.test_card_declined', { card: '4000 0000 0000 0002' })}</Text>
        </Alert>
        <TextInput
          label={t('checkout.card_number')}
          autoComplete="cc-number"
          inputMode="numeric"
          placeholder="4242 4242 4242 4242"
          required
          {...field('card_number')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label={t('checkout.expiry')}
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder={t('checkout.expiry_placeholder')}
            maxLength={5}
            required
            {...field('expiry')}
          />
          <TextInput
            label={t('checkout.cvc')}
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            required
            {...field('cvc')}
          />
        </SimpleGrid>
        <TextInput label={t('checkout.name')} autoComplete="cc-name" required {...field('name')} />
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="space-between">
          <Button variant="default" onClick={() => cancel.mutate()} loading={cancel.isPending} disabled={busy}>
            {t('checkout.cancel')}
          </Button>
          <Button type="submit" loading={pay.isPending} disabled={busy && !pay.isPending}>
            {t('checkout.pay', { amount: formatEuros(checkout.amount_cents, locale) })}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
