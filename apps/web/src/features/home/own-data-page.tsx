import { Text } from '@mantine/core';
import { Navigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { useSession } from '../../lib/auth-store';

/** /customerdata, /vetdata, /managerdata: a person's own data (filled by the customer and staff issues). */
export function OwnDataPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  // Without a session these screens have nothing to show: back to login.
  if (!user) return <Navigate to="/" replace />;
  return (
    <AuthenticatedLayout heading={t('nav.my_data')}>
      <Text c="dimmed">{t('home.mode_empty')}</Text>
    </AuthenticatedLayout>
  );
}
