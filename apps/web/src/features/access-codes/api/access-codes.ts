import { useQuery } from '@tanstack/react-query';
import type { AccessCode, AccessCodeInput, AccessCodeValidation } from '@vetcall/shared/schemas/access-code';
import { apiRequest } from '../../../lib/api-client';

export const accessCodesQueryKey = ['access-codes'] as const;

/** GET /api/appointmentsaccesscodes/ (managers). */
export function useAccessCodes() {
  return useQuery({
    queryKey: accessCodesQueryKey,
    queryFn: () => apiRequest<AccessCode[]>('/api/appointmentsaccesscodes/'),
  });
}

/** POST /api/appointmentsaccesscodes/ (managers); 409 access_code_exists when the code is taken. */
export function createAccessCode(input: AccessCodeInput): Promise<AccessCode> {
  return apiRequest('/api/appointmentsaccesscodes/', { method: 'POST', body: input });
}

/** PUT /api/appointmentsaccesscodes/{access_code_id}/disable or /enable (managers). */
export function setAccessCodeEnabled(accessCodeId: number, enabled: boolean): Promise<AccessCode> {
  return apiRequest(`/api/appointmentsaccesscodes/${accessCodeId}/${enabled ? 'enable' : 'disable'}`, {
    method: 'PUT',
  });
}

/**
 * POST /api/appointmentsaccesscodes/validate {code}: for the booking screen (docs/product-rules.md#booking,
 * #validation).
 */
export function validateAccessCode(code: string): Promise<AccessCodeValidation> {
  return apiRequest('/api/appointmentsaccesscodes/validate', { method: 'POST', body: { code } });
}
