import { Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { UserType } from '@vetcall/shared/roles';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { currentMode } from '../../app/modes';
import { useSession } from '../../lib/auth-store';

/**
 * /customer, /vet and /manager: the page of an access type, showing its current mode (?mode=).
 * Each mode's screen is delivered by the issue that owns it.
 */
export function RoleHomePage({ type }: { type: UserType }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const [search] = useSearchParams();
  if (!user || user.type !== type) return null;
  const mode = currentMode(type, search);
  return (
    <AuthenticatedLayout heading={t(`modes.${type}.${mode}`)}>
      <Text c="dimmed" data-testid="mode-content" data-mode={mode}>
        {t('home.mode_empty')}
      </Text>
    </AuthenticatedLayout>
  );
}
