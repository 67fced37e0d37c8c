import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../app/layouts/public-layout';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PublicLayout heading={t('not_found.heading')}>
      <Text mb="md">{t('not_found.text')}</Text>
      <Anchor component={Link} to="/">
        {t('not_found.home')}
      </Anchor>
    </PublicLayout>
  );
}
