import { apiRequest } from '../../../lib/api-client';

/** POST /api/logout: revokes the presented token. */
export function logoutRequest(): Promise<{ ok: true }> {
  return apiRequest('/api/logout', { method: 'POST' });
}
