import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { Locale } from '@vetcall/shared/locales';
import type { Breed } from '@vetcall/shared/schemas/breeds';
import type { Pet, PetInput, PetRecord } from '@vetcall/shared/schemas/pet';
import { apiRequest } from '../../../lib/api-client';

export const petsQueryKey = (customerId: number, locale: Locale) => ['pets', customerId, locale] as const;

/** GET /api/pets/customer/{customer_id}. */
export function useCustomerPets(customerId: number | undefined, locale: Locale) {
  return useQuery({
    queryKey: petsQueryKey(customerId ?? 0, locale),
    queryFn: () => apiRequest<Pet[]>(`/api/pets/customer/${customerId}?lang=${locale}`),
    enabled: customerId !== undefined,
  });
}

export interface PetChanges {
  create: PetInput[];
  update: (PetInput & { pet_id: number })[];
  delete: number[];
}

/** Sends one Save's creates, updates and deletes; the server applies them all or none. */
export function savePetChanges(customerId: number, changes: PetChanges, locale: Locale) {
  return apiRequest<{ created: Pet[]; updated: Pet[]; removed: { pet_id: number; archived: boolean }[] }>(
    `/api/pets/customer/${customerId}/changes?lang=${locale}`,
    { method: 'POST', body: changes },
  );
}

/** GET /api/pets/record/{pet_id}/{language}?cursor: the record, its history page by page (newest first). */
export function usePetRecord(petId: number | undefined, locale: Locale) {
  return useInfiniteQuery({
    queryKey: ['pet-record', petId, locale],
    queryFn: ({ pageParam }: { pageParam: string | null }) => {
      const query = pageParam ? `?${new URLSearchParams({ cursor: pageParam }).toString()}` : '';
      return apiRequest<PetRecord>(`/api/pets/record/${petId}/${locale}${query}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.history_next_cursor,
    enabled: petId !== undefined,
  });
}

/** GET /api/pets/breeds/{species}/{language}: [] for Other or free text. */
export function useBreeds(species: string, locale: Locale) {
  const listed = species === 'Dog' || species === 'Cat';
  return useQuery({
    queryKey: ['breeds', species, locale],
    queryFn: () => apiRequest<Breed[]>(`/api/pets/breeds/${species}/${locale}`, { auth: false }),
    enabled: listed,
    staleTime: Infinity,
  });
}
