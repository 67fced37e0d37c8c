import type { LoginInput, LoginResponse } from '@vetcall/shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/login/ (docs/product-rules.md#api Login). */
export function loginRequest(input: LoginInput): Promise<LoginResponse> {
  return apiRequest('/api/login/', { method: 'POST', body: input, auth: false });
}
