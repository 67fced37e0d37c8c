import { useQuery } from '@tanstack/react-query';
import type { Customer, CustomerProfileInput, CustomerRegistrationInput } from '@vetcall/shared/schemas/customer';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/users/customer (no auth). */
export function registerCustomer(input: CustomerRegistrationInput): Promise<{ user_id: number }> {
  return apiRequest('/api/users/customer', { method: 'POST', body: input, auth: false });
}

/** GET /api/users/checkemail/{email}: non-empty when taken (docs/product-rules.md#validation). */
export async function isEmailTaken(email: string): Promise<boolean> {
  const list = await apiRequest<unknown[]>(`/api/users/checkemail/${encodeURIComponent(email)}`, { auth: false });
  return list.length > 0;
}

/** PUT /api/users/customer/{user_id}. */
export function updateCustomer(userId: number, input: CustomerProfileInput) {
  return apiRequest<{ user_id: number; email_changed: boolean }>(`/api/users/customer/${userId}`, {
    method: 'PUT',
    body: input,
  });
}

export const customerQueryKey = (email: string) => ['customer', email] as const;

/** GET /api/users/customer/byemail/{email}. */
export function useCustomer(email: string | undefined) {
  return useQuery({
    queryKey: customerQueryKey(email ?? ''),
    queryFn: () => apiRequest<Customer>(`/api/users/customer/byemail/${encodeURIComponent(email!)}`),
    enabled: Boolean(email),
  });
}
