import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { authStore } from '../../lib/auth-store';
import { notifyError } from '../../lib/notify';

/**
 * Pages only a logged-in customer may see (docs/product-rules.md#request-confirmed): without a stored token and user
 * data, or for a vet or manager, the 'invalid access' toast and the login page. Decided on arrival: a session that ends
 * later is handled where it ends (the root layout's 401 handling). Answers whether the page may show.
 */
export function useCustomerOnly(): boolean {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [allowed] = useState(() => {
    const { token, user } = authStore.getState();
    return Boolean(token) && user?.type === 'customer';
  });
  // One toast even when React runs the effect twice (strict mode keeps refs across the rerun).
  const refused = useRef(false);

  useEffect(() => {
    if (allowed || refused.current) return;
    refused.current = true;
    notifyError(t('session.invalid_access'));
    void navigate('/', { replace: true });
  }, [allowed, navigate, t]);

  return allowed;
}
