import { Alert, Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { clientConfig } from '../../lib/client-config';

/** docs/product-rules.md#errors Payment confirmation fails: 'problem validating payment' plus the support contact. */
export function PaymentProblem({ message, reference }: { message: string; reference?: string | null }) {
  const { t } = useTranslation();
  const supportEmail = clientConfig().support_email;
  return (
    <Alert color="red" role="alert" title={t('payment.problem_title')}>
      <Text size="sm">{message}</Text>
      <Text size="sm" mt="xs">
        {t('payment.contact_support')}{' '}
        <Anchor href={`mailto:${supportEmail}`} size="sm" c="red.9" fw={600}>
          {supportEmail}
        </Anchor>
      </Text>
      {reference && (
        <Text size="sm" mt="xs" style={{ overflowWrap: 'anywhere' }}>
          {t('payment.reference', { reference })}
        </Text>
      )}
    </Alert>
  );
}
