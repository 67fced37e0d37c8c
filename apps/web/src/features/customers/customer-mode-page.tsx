import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@vetcall/shared/schemas/auth';
import { AuthenticatedLayout } from '../../app/layouts/authenticated-layout';
import { useSession } from '../../lib/auth-store';

/**
 * A mode of /customer (customer-page.tsx): the customer's layout under the mode's heading, drawn for a customer's
 * session only; `children` gets that customer.
 */
export function CustomerModePage({
  mode,
  children,
}: {
  mode: 'appointment_req' | 'appointments';
  children: (user: SessionUser) => ReactNode;
}) {
  const { t } = useTranslation();
  const { user } = useSession();
  if (user?.type !== 'customer') return null;
  return (
    <AuthenticatedLayout heading={t(`modes.customer.${mode}`)}>
      <div data-testid="mode-content" data-mode={mode}>
        {children(user)}
      </div>
    </AuthenticatedLayout>
  );
}
