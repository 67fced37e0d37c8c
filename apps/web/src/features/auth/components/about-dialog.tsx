import { Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
// The dialog's styles are not among the login page's own (app/first-screen-styles.ts).
import '../../../app/all-styles';

/** "About the product" of the login screen; its own chunk, fetched when first opened (issue 16). */
export function AboutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('login.about_title')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <Text>{t('login.about_text')}</Text>
    </Modal>
  );
}
