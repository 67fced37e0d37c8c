import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { authStore } from '../../lib/auth-store';
import { logoutRequest } from './api/logout';

/**
 * docs/product-rules.md#states: logout revokes the session, removes token and user data and resets all domain state.
 */
export function useLogout() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    // The local session ends even if the server cannot be reached; the token then expires there.
    await logoutRequest().catch(() => undefined);
    authStore.clear();
    queryClient.clear();
    await navigate('/', { replace: true });
  }, [navigate, queryClient]);
}
