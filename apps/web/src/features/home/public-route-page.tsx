import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PublicLayout } from '../../app/layouts/public-layout';

/** Public routes of SPEC §2.1 whose screens arrive with later issues: title and product frame only. */
export function PublicRoutePage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <PublicLayout heading={title}>
      <Text c="dimmed">{t('home.mode_empty')}</Text>
    </PublicLayout>
  );
}
