import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { useSession } from '../../lib/auth-store';

/** /customerdata, /vetdata, /managerdata: a person's own data (filled by the customer and staff issues). */
export function OwnDataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  // The route's loader sends visitors without a session to login; this covers the moment a session ends.
  if (!user) return null;
  return (
    <AuthenticatedLayout heading={t('nav.my_data')}>
      <Text c="dimmed">{t('home.mode_empty')}</Text>
    </AuthenticatedLayout>
  );
}
