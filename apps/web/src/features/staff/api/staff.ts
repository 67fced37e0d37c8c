import { useQuery } from '@tanstack/react-query';
import type { UserType } from '@vetcall/shared/roles';
import type {
  Manager,
  NewManagerInput,
  NewVetInput,
  PublicVet,
  UserRow,
  Vet,
  VetProfileInput,
} from '@vetcall/shared/schemas/staff';
import { apiRequest, apiUpload } from '../../../lib/api-client';

export const usersQueryKey = (type: UserType) => ['users', type] as const;

/** GET /api/users/{type} as a manager: full rows. */
export function useUsers(type: UserType) {
  return useQuery({ queryKey: usersQueryKey(type), queryFn: () => apiRequest<UserRow[]>(`/api/users/${type}`) });
}

/** GET /api/users/vet as a customer or vet: the public view (booking lists vets by name). */
export function usePublicVets(enabled = true) {
  return useQuery({
    queryKey: ['users', 'vet', 'public'],
    queryFn: () => apiRequest<PublicVet[]>('/api/users/vet'),
    enabled,
  });
}

export function createStaffUser(type: 'vet' | 'manager', input: NewVetInput | NewManagerInput) {
  return apiRequest<{ user_id: number }>(`/api/users/${type}`, { method: 'POST', body: input });
}

export function removeUser(userId: number) {
  return apiRequest<{ user_id: number }>(`/api/users/${userId}`, { method: 'DELETE' });
}

/** The single-field routes of docs/product-rules.md#api Users. */
export type UserField = 'name' | 'email' | 'vetspecialty' | 'vetphone';
const BODY_KEY: Record<UserField, string> = {
  name: 'name',
  email: 'email',
  vetspecialty: 'specialty',
  vetphone: 'phone',
};
export function changeUserField(field: UserField, userId: number, value: string) {
  return apiRequest<{ user_id: number }>(`/api/users/${field}/${userId}`, {
    method: 'POST',
    body: { [BODY_KEY[field]]: value },
  });
}

/** POST /api/users/image/{user_id} (form field image). */
export function uploadUserPhoto(userId: number, file: File) {
  const form = new FormData();
  form.append('image', file);
  return apiUpload<{ user_id: number; etag: string }>(`/api/users/image/${userId}`, form);
}

export function useVetProfile(email: string | undefined) {
  return useQuery({
    queryKey: ['vet-profile', email],
    queryFn: () => apiRequest<Vet>(`/api/users/vet/byemail/${encodeURIComponent(email!)}`),
    enabled: Boolean(email),
  });
}

export function updateVetProfile(userId: number, input: VetProfileInput) {
  return apiRequest<{ user_id: number; email_changed: boolean }>(`/api/users/vet/${userId}`, {
    method: 'PUT',
    body: input,
  });
}

export function useManagerProfile(email: string | undefined) {
  return useQuery({
    queryKey: ['manager-profile', email],
    queryFn: () => apiRequest<Manager>(`/api/users/manager/byemail/${encodeURIComponent(email!)}`),
    enabled: Boolean(email),
  });
}

export function updateManagerProfile(userId: number, input: { name: string; email: string }) {
  return apiRequest<{ user_id: number; email_changed: boolean }>(`/api/users/manager/${userId}`, {
    method: 'PUT',
    body: input,
  });
}
