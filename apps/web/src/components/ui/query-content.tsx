import type { ReactNode } from 'react';
import { Alert, Loader, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiErrorMessage } from '../../lib/form-errors';

/** A list query's states in one place: loading, a translated error, an empty message, or the content. */
export function QueryContent<Item>({
  query,
  errorKey,
  emptyKey,
  children,
}: {
  query: UseQueryResult<Item[]>;
  errorKey: string;
  emptyKey?: string;
  children: (items: Item[]) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <Loader aria-label={t('app.loading')} />;
  if (query.isError) {
    return (
      <Alert color="red" role="alert">
        {apiErrorMessage(t, query.error, errorKey)}
      </Alert>
    );
  }
  if (emptyKey && query.data.length === 0) return <Text c="dimmed">{t(emptyKey)}</Text>;
  return <>{children(query.data)}</>;
}
