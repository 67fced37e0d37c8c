import { Center, Loader, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Shown while a screen's code is fetched (screens load lazily, issue 16). A status region, so a screen reader
 * hears that the page is loading instead of silence.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Center mih="50vh" role="status">
      <Loader aria-hidden="true" />
      <VisuallyHidden>{t('app.loading')}</VisuallyHidden>
    </Center>
  );
}
