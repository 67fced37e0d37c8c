import { useQuery } from '@tanstack/react-query';
import type { AvailabilityProfile } from '@vetcall/shared/schemas/availability';
import { apiRequest } from '../../../lib/api-client';

export interface CalendarProfileSummary {
  id: number;
  name: string;
}

export interface TimeLimit {
  time_limit_id: number;
  time_limit: string;
}

export const calendarProfilesQueryKey = (vetId: number) => ['availability', 'profiles', vetId] as const;
export const availabilityProfileQueryKey = (vetId: number, profileId: number) =>
  ['availability', 'profile', vetId, profileId] as const;

/** GET /api/vets/calendarprofiles/{vet_id}: the vet's availability profiles (id and name). */
export function fetchCalendarProfiles(vetId: number) {
  return apiRequest<CalendarProfileSummary[]>(`/api/vets/calendarprofiles/${vetId}`);
}

/** GET /api/vets/availability/{vet_id}/{profile_id}: one whole profile. */
export function fetchAvailabilityProfile(vetId: number, profileId: number) {
  return apiRequest<AvailabilityProfile>(`/api/vets/availability/${vetId}/${profileId}`);
}

/** PATCH /api/vets/availability/{vet_id}/{profile_id}: replaces the profile (everything but its id). */
export function updateAvailabilityProfile(vetId: number, profile: AvailabilityProfile) {
  const { id, ...body } = profile;
  return apiRequest<AvailabilityProfile>(`/api/vets/availability/${vetId}/${id}`, { method: 'PATCH', body });
}

/** GET /api/vets/time-limits: the selectable times of working intervals. */
export function fetchTimeLimits() {
  return apiRequest<TimeLimit[]>('/api/vets/time-limits');
}

export function useCalendarProfiles(vetId: number) {
  return useQuery({ queryKey: calendarProfilesQueryKey(vetId), queryFn: () => fetchCalendarProfiles(vetId) });
}

export function useAvailabilityProfile(vetId: number, profileId: number | undefined) {
  return useQuery({
    queryKey: availabilityProfileQueryKey(vetId, profileId ?? 0),
    queryFn: () => fetchAvailabilityProfile(vetId, profileId!),
    enabled: profileId !== undefined,
  });
}

export function useTimeLimits() {
  return useQuery({ queryKey: ['availability', 'time-limits'], queryFn: fetchTimeLimits, staleTime: Infinity });
}
