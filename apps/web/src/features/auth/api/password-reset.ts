import type { Locale } from '@vetcall/shared/locales';
import type { UpdatePasswordInput } from '@vetcall/shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/login/sendpasswordresetemail/{language}. */
export function sendPasswordResetEmail(email: string, language: Locale): Promise<{ ok: true }> {
  return apiRequest(`/api/login/sendpasswordresetemail/${encodeURIComponent(language)}`, {
    method: 'POST',
    body: { email },
    auth: false,
  });
}

/** POST /api/login/updatepassword. */
export function updatePassword(input: UpdatePasswordInput): Promise<{ ok: true }> {
  return apiRequest('/api/login/updatepassword', { method: 'POST', body: input, auth: false });
}
